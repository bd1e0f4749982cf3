import type { BrandSettings } from '@fleetgate/shared/brand';
import { AUTH_BASE } from '@fleetgate/shared/constants';
import type { LoginBody } from '@fleetgate/shared/schemas/auth';
import type { AuthorizationUrl, OidcInfo } from '@fleetgate/shared/schemas/mfa';
import { safeContinueUrl } from '@fleetgate/shared/url';
import type { SignOutReason } from '#src/features/account/sign-out';
import { goToVendor, withVendorRedirect } from '#src/features/mfa/vendor-redirect';
import { api } from '#src/lib/http/client';
import { ApiError, CancelledError, NetworkError } from '#src/lib/http/errors';
import { type Field, field, h, icon, isBusy, setBusy, showFieldError } from './dom';
import { t } from './texts';

/** Where to go after signing in: the continue_url of this host, else the console (product §5). */
export function nextPage(): string {
  const next = safeContinueUrl(
    new URLSearchParams(window.location.search).get('continue_url'),
    window.location.origin,
  );
  return next && !next.startsWith('/account/login') ? next : '/';
}

/**
 * The token of the link e-mailed to an account's owner when too many sign-ins failed; the
 * sign-in sends it along so that the owner gets past the lock.
 */
function unlockToken(): string | undefined {
  return new URLSearchParams(window.location.search).get('unlock') || undefined;
}

/** Why the console sent the user here by itself (features/account/sign-out.ts), if it did. */
function signedOutReason(): SignOutReason | undefined {
  const reason = new URLSearchParams(window.location.search).get('reason');
  return reason === 'idle' || reason === 'ended' ? reason : undefined;
}

const EYE = 'M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z';
const PUPIL = 'M12 9a3 3 0 1 0 0 6 3 3 0 1 0 0-6z';
const STRIKE = 'M3 3l18 18';

/** The password's field with the button that shows or hides what was typed. */
function passwordField(): Field {
  // A toggle keeps its name; whether the password shows is its pressed state.
  const toggle = h('button', {
    type: 'button',
    class: 'reveal',
    'aria-pressed': 'false',
    'aria-label': t('account', 'login.showPassword'),
  });
  const password = field(
    'password',
    t('account', 'login.password'),
    { type: 'password', autocomplete: 'current-password' },
    (input) => h('div', { class: 'password' }, input, toggle),
  );
  const draw = (shown: boolean) => {
    toggle.replaceChildren(shown ? icon(EYE, PUPIL, STRIKE) : icon(EYE, PUPIL));
    toggle.setAttribute('aria-pressed', String(shown));
  };
  toggle.addEventListener('click', () => {
    const shown = password.input.type === 'password';
    password.input.type = shown ? 'text' : 'password';
    draw(shown);
  });
  draw(false);
  return password;
}

/**
 * The sign-in page (`/account/login`): e-mail, password, 'Sign in', and the vendor ID when
 * the server offers it. It draws itself without React or the component library, so that it
 * is the smallest page of the console (docs/decisions.md, 'A sign-in page of its own').
 */
export function renderSignIn(root: HTMLElement, brand: BrandSettings): void {
  const title = t('account', 'login.title', { app: brand.app_name });
  const email = field('email', t('account', 'login.email'), {
    type: 'email',
    autocomplete: 'username',
    autofocus: true,
  });
  const password = passwordField();
  const message = h('div', { class: 'messages' });
  const submit = h('button', { type: 'submit', class: 'button primary' }, t('account', 'login.submit'));
  const form = h(
    'form',
    { class: 'card', novalidate: true, 'aria-label': title },
    message,
    email.element,
    password.element,
    submit,
  );
  root.replaceChildren(
    h(
      'main',
      { class: 'sign-in' },
      h(
        'div',
        { class: 'box' },
        h(
          'header',
          { class: 'head' },
          h('img', { src: brand.logo_vector || '/favicon.svg', width: '48', height: '48', alt: '' }),
          h('h1', {}, title),
          h('p', { class: 'dimmed' }, brand.default ? t('account', 'login.subtitle') : brand.full_app_name),
        ),
        form,
      ),
    ),
  );

  const reason = signedOutReason();
  const showError = (text: string | null) => {
    if (text)
      message.replaceChildren(
        h('div', { class: 'alert error', role: 'alert', 'data-testid': 'login-error' }, text),
      );
    else if (reason)
      message.replaceChildren(
        h(
          'div',
          { class: 'alert info', role: 'status', 'data-testid': 'login-reason' },
          t('account', `login.reason.${reason}`),
        ),
      );
    else message.replaceChildren();
  };
  showError(null);
  const failed = (error: unknown) => {
    // Closing the code dialog is not a failure worth a message: the form is simply back.
    if (!(error instanceof CancelledError))
      showError(
        error instanceof ApiError || error instanceof NetworkError
          ? error.message
          : t('account', 'login.failed'),
      );
  };

  for (const target of [email, password])
    target.input.addEventListener('input', () => showFieldError(target, undefined));

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (isBusy(submit)) return;
    showError(null);
    setBusy(submit, true);
    try {
      // The schema brings zod: it comes with the first 'Sign in', not with the page, and after
      // the switch that keeps zod from compiling code (the policy allows no eval).
      await import('#src/lib/zod-jitless');
      const { loginBodySchema } = await import('@fleetgate/shared/schemas/auth');
      const parsed = loginBodySchema.safeParse({
        email: email.input.value,
        password: password.input.value,
        unlock_token: unlockToken(),
      });
      if (!parsed.success) {
        const errors: Partial<Record<'email' | 'password', string>> = {};
        for (const issue of parsed.error.issues) {
          const key = issue.path[0] as 'email' | 'password';
          errors[key] ??= issue.message;
        }
        showFieldError(email, errors.email);
        showFieldError(password, errors.password);
        setBusy(submit, false);
        return;
      }
      const body: LoginBody = parsed.data;
      // product §4 second step: MFA_REQUIRED opens the code dialog; vendor ID leaves for its page.
      await withVendorRedirect(() => api.post(`${AUTH_BASE}/login`, body, { noRefresh: true }), nextPage());
      // Signed in, the browser leaves for the console: the button stays busy until it has.
      window.location.assign(nextPage());
    } catch (error) {
      failed(error);
      setBusy(submit, false);
    }
  });

  void offerVendor(form, failed);
}

/** 'Sign in with …' when the vendor identity service is offered (GET {auth}/oidc). */
async function offerVendor(form: HTMLFormElement, failed: (error: unknown) => void): Promise<void> {
  let vendor: OidcInfo;
  try {
    vendor = (await api.get<OidcInfo>(`${AUTH_BASE}/oidc`, { noRefresh: true })).data;
  } catch {
    return;
  }
  if (!vendor.enabled) return;
  const button = h(
    'button',
    { type: 'button', class: 'button default' },
    t('mfa', 'login.vendor', { name: vendor.name ?? '' }),
  );
  button.addEventListener('click', async () => {
    if (isBusy(button)) return;
    setBusy(button, true);
    try {
      const { authorization_url } = (
        await api.post<AuthorizationUrl>(`${AUTH_BASE}/oidc/start`, {}, { noRefresh: true })
      ).data;
      await goToVendor(authorization_url, nextPage());
    } catch (error) {
      failed(error);
      setBusy(button, false);
    }
  });
  form.append(h('div', { class: 'divider' }, h('span', {}, t('mfa', 'login.or'))), button);
}
