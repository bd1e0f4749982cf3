import { type RenderedMail, renderMail } from '../mail/mail.templates';

export const AUTH_MAIL_TEMPLATES = { accountLocked: 'account_locked' } as const;

/** The owner of an account under a guessing attack hears of it, with their way back in. */
export function accountLockedMail(input: { appName: string; url: string }): RenderedMail {
  return renderMail(
    {
      subject: `${input.appName}: sign-in to your account was paused`,
      paragraphs: [
        'Someone tried to sign in to your account with wrong passwords many times in the last hour, so we stopped checking passwords for it for now.',
        'If that was you, or you want to sign in now, open the link below: it lets you sign in with your password despite the pause. It works once, in this browser session, for the next hour.',
        'If it was not you, your password is still safe unless someone knows it. Consider changing it and turning on two-step verification in your account settings.',
      ],
      action: { label: 'Sign in to your account', url: input.url },
    },
    input.appName,
  );
}
