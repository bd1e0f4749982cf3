/**
 * Message templates in code: each gives a subject, a plain text and a simple HTML body.
 * Everything a user typed (names, e-mail addresses) is escaped in the HTML; links are
 * built by the server from its own base URL and a token, never taken from input.
 */

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/** Line breaks and other control characters out of a header value (subject injection). */
export function headerSafe(value: string): string {
  return value.replace(/\p{Cc}+/gu, ' ').trim();
}

export type RenderedMail = { subject: string; text: string; html: string };

export type MailParts = {
  subject: string;
  /** Plain paragraphs (escaped in the HTML). */
  paragraphs: readonly string[];
  /** A button and its URL, shown as a plain link in the text version. */
  action?: { label: string; url: string };
  /** Smaller print under the action. */
  footer?: readonly string[];
  /** A code shown large (e-mail verification codes). */
  code?: string;
};

/** The one layout of every message: plain text and simple, inline-styled HTML. */
export function renderMail(parts: MailParts, appName = 'Fleetgate'): RenderedMail {
  const subject = headerSafe(parts.subject);
  const text = [
    ...parts.paragraphs,
    ...(parts.code ? [parts.code] : []),
    ...(parts.action ? [`${parts.action.label}: ${parts.action.url}`] : []),
    ...(parts.footer ?? []),
    `— ${appName}`,
  ].join('\n\n');
  const p = (t: string) => `<p style="margin:0 0 16px">${escapeHtml(t)}</p>`;
  const html = [
    '<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;font-size:15px;color:#1f2933;line-height:1.5">',
    '<div style="max-width:560px;margin:0 auto;padding:24px">',
    `<h2 style="font-size:20px;margin:0 0 16px">${escapeHtml(subject)}</h2>`,
    ...parts.paragraphs.map(p),
    ...(parts.code
      ? [
          `<p style="font-size:28px;letter-spacing:6px;font-weight:bold;margin:0 0 16px">${escapeHtml(parts.code)}</p>`,
        ]
      : []),
    ...(parts.action
      ? [
          `<p style="margin:24px 0"><a href="${escapeHtml(parts.action.url)}" style="background:#228be6;color:#fff;padding:10px 18px;border-radius:4px;text-decoration:none">${escapeHtml(parts.action.label)}</a></p>`,
          `<p style="font-size:13px;color:#52606d;margin:0 0 16px">${escapeHtml(parts.action.url)}</p>`,
        ]
      : []),
    ...(parts.footer ?? []).map(
      (t) => `<p style="font-size:13px;color:#52606d;margin:0 0 12px">${escapeHtml(t)}</p>`,
    ),
    `<p style="font-size:13px;color:#52606d">— ${escapeHtml(appName)}</p>`,
    '</div></body></html>',
  ].join('');
  return { subject, text, html };
}

/** Template names as the mail log shows them. */
export const MAIL_TEMPLATES = {
  smtpTest: 'smtp_test',
  userInvitation: 'user_invitation',
  distributorInvitation: 'distributor_invitation',
  invitationToExistingAccount: 'invitation_existing_account',
} as const;

export function smtpTestMail(appName: string): RenderedMail {
  return renderMail(
    {
      subject: `${appName} test message`,
      paragraphs: [
        'This is a test message from the SMTP configuration page.',
        'If you can read it, the console can send e-mail through this server.',
      ],
    },
    appName,
  );
}

export function userInvitationMail(input: {
  appName: string;
  inviter: string;
  companyName: string;
  roleTitle: string;
  url: string;
  expiresAt: Date;
}): RenderedMail {
  return renderMail(
    {
      subject: `You are invited to ${input.appName}`,
      paragraphs: [
        `${input.inviter} invited you to join ${input.companyName} as ${input.roleTitle}.`,
        'Open the link below to set your password and sign in. The link works once.',
      ],
      action: { label: 'Accept the invitation', url: input.url },
      footer: [
        `The invitation expires on ${input.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
        'If you did not expect this message, ignore it.',
      ],
    },
    input.appName,
  );
}

/**
 * An invitation to an address that already has an account elsewhere: the inviter is not
 * told (another tenant's users are not theirs to learn of), the address's owner is.
 */
export function invitationToExistingAccountMail(input: {
  appName: string;
  inviter: string;
  companyName: string;
}): RenderedMail {
  return renderMail(
    {
      subject: `You are invited to ${input.companyName} on ${input.appName}`,
      paragraphs: [
        `${input.inviter} invited you to join ${input.companyName}, but this address already has an account, and an address can belong to one account only.`,
        `To join ${input.companyName}, ask your current administrator to move your account there, or ask ${input.inviter} to invite another address of yours.`,
      ],
      footer: ['If you did not expect this message, ignore it: nothing changes.'],
    },
    input.appName,
  );
}

export function distributorInvitationMail(input: {
  appName: string;
  inviter: string;
  companyName: string;
  url: string;
  expiresAt: Date;
}): RenderedMail {
  return renderMail(
    {
      subject: `Create your company in ${input.appName}`,
      paragraphs: [
        `${input.inviter} of ${input.companyName} invited you to create your own company in ${input.appName}.`,
        'Open the link below to name your company and set your password. You will be its administrator. The link works once.',
      ],
      action: { label: 'Create my company', url: input.url },
      footer: [
        `The invitation expires on ${input.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
        'If you did not expect this message, ignore it.',
      ],
    },
    input.appName,
  );
}
