import i18next from 'i18next';
import { loaderWith } from '#src/i18n/i18n';
import { defineFeature } from '#src/lib/define-feature';
import { dialog } from '#src/lib/dialogs/registry';

/** Every screen, window and form of the feature brings its texts (the 'mail' namespace). */
const load = loaderWith('mail');

const forms = () => load(() => import('./forms/mail-forms'));

/** Mail: the mail logs, the SMTP page, the dialog 'SMTP configuration' and the mail forms (product §2). */
export const mailFeature = defineFeature({
  pages: {
    'mail.logs': () => load(() => import('./MailLogsPage')).then((m) => m.MailLogsPage),
    'email-smtp': () => load(() => import('./SmtpPage')).then((m) => m.SmtpPage),
  },
  dialogs: {
    smtpConfiguration: dialog(
      () => load(() => import('./components/SmtpConfigurationDialog')).then((m) => m.SmtpConfigurationDialog),
      { title: () => i18next.t('mail:smtp.dialogTitle') },
    ),
  },
  forms: {
    smtpConfiguration: () => forms().then((m) => m.smtpForm()),
    smtpTest: () => forms().then((m) => m.smtpTestForm),
    suppressEmail: () => forms().then((m) => m.suppressEmailForm),
    removeFromSuppresionList: () => forms().then((m) => m.removeFromSuppresionListForm),
  },
});
