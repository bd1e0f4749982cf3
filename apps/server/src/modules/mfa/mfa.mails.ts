import { MFA_CODE_TTL_MINUTES } from '@fleetgate/shared/schemas/mfa';
import { type RenderedMail, renderMail } from '../mail/mail.templates';

/** Template names as the mail log shows them. */
export const MFA_MAIL_TEMPLATES = { code: 'mfa_code' } as const;

/** An e-mail second-step code (spec §1, §9 'Enter authentication code'). */
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
