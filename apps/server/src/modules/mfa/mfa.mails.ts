import { MFA_CODE_TTL_MINUTES } from '@fleetgate/shared/schemas/mfa';
import { type RenderedMail, renderMail } from '../mail/mail.templates';

/** Template names as the mail log shows them. */
export const MFA_MAIL_TEMPLATES = { code: 'mfa_code', totpReused: 'mfa_totp_reused' } as const;

/** What the holder of an authenticator is told when one of its codes comes a second time. */
export const TOTP_REUSED_NOTICE =
  'A code from your authenticator app was used a second time and refused. If that was not you, someone may have seen the code and knows your password: change it.';

/** An e-mail second-step code (product §1, §9 'Enter authentication code'). */
export function mfaCodeMail(input: {
  appName: string;
  code: string;
  purpose: 'login' | 'enrol';
}): RenderedMail {
  return renderMail(
    {
      subject:
        input.purpose === 'login'
          ? `${input.appName} sign-in code`
          : `${input.appName} two-step verification code`,
      paragraphs: [
        input.purpose === 'login'
          ? 'Use this code to finish signing in.'
          : 'Use this code to turn on two-step verification by e-mail.',
      ],
      code: input.code,
      footer: [
        `The code expires in ${MFA_CODE_TTL_MINUTES} minutes and works once.`,
        'If you did not try to sign in, change your password: someone knows it.',
      ],
    },
    input.appName,
  );
}

/** ASVS V2.8.5: a reused time-based code is refused, logged, and its holder told. */
export function totpReusedMail(appName: string): RenderedMail {
  return renderMail(
    {
      subject: `${appName}: an authenticator code was used twice`,
      paragraphs: [TOTP_REUSED_NOTICE],
      footer: ['If it was you, signing in twice within half a minute does this: nothing else is needed.'],
    },
    appName,
  );
}
