import i18next from 'i18next';
import { createElement } from 'react';
import { registerDialog } from '../../lib/dialogs/registry';
import { windowsStore } from '../../lib/dialogs/windows-store';
import { MailMessageView } from './components/MailMessageView';
import { SmtpConfigurationDialog } from './components/SmtpConfigurationDialog';

let registered = false;

/** Registers the mail feature's named dialog of product §2: 'SMTP configuration'. */
export function registerMailDialogs(): void {
  if (registered) return;
  registered = true;
  registerDialog('smtpConfiguration', SmtpConfigurationDialog, {
    title: () => i18next.t('mail:smtp.dialogTitle'),
  });
}

/** Opens one logged message in a window (one window per message). */
export function openMailMessage(id: number, subject: string): string {
  return windowsStore.open(
    (props: { id: number }) => createElement(MailMessageView, props),
    { id },
    {
      id: `mail-message:${id}`,
      title: subject,
      size: 'lg',
    },
  );
}
