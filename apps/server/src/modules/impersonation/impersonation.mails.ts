import { type RenderedMail, renderMail } from '../mail/mail.templates';

export const IMPERSONATION_MAIL_TEMPLATES = { request: 'impersonation_request' } as const;

/** An admin asks a user for impersonation access (route impersonation.access). */
export function impersonationRequestMail(input: {
  appName: string;
  requester: string;
  requesterCompany: string | null;
  url: string;
  expiresAt: Date;
}): RenderedMail {
  const who = input.requesterCompany ? `${input.requester} (${input.requesterCompany})` : input.requester;
  return renderMail(
    {
      subject: `${input.appName}: a request to sign in as you`,
      paragraphs: [
        `${who} asks for access to sign in as you, to help with your account.`,
        'Nothing changes unless you confirm. If you do, you choose until when the access lasts, and you can revoke it at any time in your account settings.',
      ],
      action: { label: 'Review the request', url: input.url },
      footer: [
        `The request expires on ${input.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
        'If you do not know this person, ignore this message.',
      ],
    },
    input.appName,
  );
}
