import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { clientHandlers } from '../http/handlers';
import { verifyThrough } from '../http/verification';
import type { WindowsStore } from './windows-store';

/**
 * The two windows the HTTP client opens by itself (the password prompt and the second
 * step's code), loaded the first time one is needed: every screen registers them, few
 * ever show them.
 */
const views = () => import('./client-dialog-views');

/**
 * Plugs the password prompt (HTTP 423) and the second-step dialog (MFA_REQUIRED) into
 * the HTTP client (product §4, §8). Returns the undo.
 */
export function registerClientDialogs(store: WindowsStore): () => void {
  clientHandlers.confirmPassword = async (message) => {
    const { PasswordPrompt } = await views();
    return new Promise<boolean>((resolve) => {
      let confirmed = false;
      store.open(
        PasswordPrompt,
        {
          message: message || i18next.t('dialogs:prompt.defaultMessage'),
          onConfirmed: () => {
            confirmed = true;
            resolve(true);
          },
        },
        {
          id: 'password-confirmation',
          title: i18next.t('dialogs:prompt.title'),
          size: 'sm',
          onClose: () => {
            if (!confirmed) resolve(false);
          },
        },
      );
    });
  };

  clientHandlers.verify = verifyThrough(
    (verification, outcome) =>
      void views().then(
        ({ VerificationDialog }) =>
          store.open(
            VerificationDialog,
            { verification, outcome },
            {
              id: 'verification',
              title: i18next.t(`dialogs:verify.${verification.kind}.title`),
              size: 'sm',
              onClose: outcome.closed,
            },
          ),
        // The window's code did not come (the network went): the request fails as it would.
        (error: unknown) => outcome.failed(error),
      ),
    () => {
      // product §8: MFA failing with no method and no message.
      const message = i18next.t('dialogs:verify.connectFailed');
      notifications.show({ color: 'red', message });
      return new Error(message);
    },
  );

  return () => {
    clientHandlers.confirmPassword = null;
    clientHandlers.verify = null;
  };
}
