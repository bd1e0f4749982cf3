import { submitCode, type Verification, type VerificationOutcome } from '#src/lib/http/verification';
import { field, h, isBusy, setBusy, showFieldError } from './dom';
import { t } from './texts';

/**
 * The second step's code dialog on the sign-in page (product §4), the same flow and words as
 * the console's window (lib/dialogs/client-dialogs.tsx) in a native modal `<dialog>`: the
 * browser keeps the focus inside, closes it on Escape and gives the focus back.
 */
export function openVerificationDialog(verification: Verification, outcome: VerificationOutcome): void {
  const title = h('h2', { id: 'verification-title' }, t('dialogs', `verify.${verification.kind}.title`));
  const code = field('verification-code', t('dialogs', 'verify.code'), {
    name: 'code',
    autocomplete: 'one-time-code',
    inputmode: verification.kind === 'vendor' ? 'text' : 'numeric',
    required: true,
    autofocus: true,
  });
  const confirm = h('button', { type: 'submit', class: 'button primary' }, t('dialogs', 'confirm.confirm'));
  const close = h(
    'button',
    { type: 'button', class: 'close', 'aria-label': t('dialogs', 'window.close') },
    '×',
  );
  const form = h(
    'form',
    { novalidate: true, 'data-testid': 'verification-dialog' },
    h('p', {}, verification.challenge.message || t('dialogs', `verify.${verification.kind}.intro`)),
    code.element,
    h('div', { class: 'actions' }, confirm),
  );
  const dialog = h(
    'dialog',
    { class: 'verification', 'aria-labelledby': 'verification-title' },
    h('div', { class: 'dialog-head' }, title, close),
    form,
  );

  const showError = (message: string | undefined) => showFieldError(code, message);
  code.input.addEventListener('input', () => showError(undefined));
  close.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    outcome.closed();
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (isBusy(confirm)) return;
    const value = code.input.value.trim();
    // product §5: prompt input is required.
    if (!value) return showError(t('dialogs', 'prompt.required'));
    setBusy(confirm, true);
    const retry = await submitCode(verification, value, outcome);
    setBusy(confirm, false);
    if (retry === undefined) dialog.close();
    else showError(retry);
  });

  document.body.append(dialog);
  dialog.showModal();
}
