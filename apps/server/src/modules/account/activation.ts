import { badRequest } from '#src/http/errors';
import { renderMail } from '../mail/mail.templates';
import type { PublicContext } from '../service-context';

/** How long an e-mail confirmation link works. */
const LINK_TTL_MS = 48 * 3_600_000;
const SEAL_CONTEXT = 'email-verification';

type LinkClaims = { u: number; e: string; x: number };

/**
 * E-mail confirmation (product §6 EMAIL_NOT_VERIFIED, §7 POST {auth}/user/activation/resend).
 * The link's token is sealed with the installation key (AES-256-GCM): nothing to store,
 * it cannot be forged, and it names the address, so it dies when the address changes.
 */
export const activation = {
  async send(ctx: PublicContext, user: { id: number; email: string; companyId: number }) {
    const claims: LinkClaims = { u: user.id, e: user.email, x: Date.now() + LINK_TTL_MS };
    const token = ctx.secrets.encrypt(JSON.stringify(claims), SEAL_CONTEXT);
    const appName = await ctx.mail.appName();
    const mail = renderMail(
      {
        subject: `Confirm your email address for ${appName}`,
        paragraphs: [`Confirm that ${user.email} is your address to start using ${appName}.`],
        action: { label: 'Confirm email address', url: `${ctx.baseUrl}/account/verify-email?token=${token}` },
        footer: ['The link works for 48 hours.', 'If you did not expect this message, ignore it.'],
      },
      appName,
    );
    return ctx.mail.send({
      to: user.email,
      template: 'email_confirmation',
      ...mail,
      companyId: user.companyId,
    });
  },

  /** The user and address a link was made for, if it is genuine and fresh. */
  read(ctx: PublicContext, token: string): { userId: number; email: string } {
    try {
      const claims = JSON.parse(ctx.secrets.decrypt(token, SEAL_CONTEXT)) as LinkClaims;
      if (typeof claims.u === 'number' && typeof claims.e === 'string' && claims.x > Date.now()) {
        return { userId: claims.u, email: claims.e };
      }
    } catch {
      // falls through: not ours, altered, or expired
    }
    throw badRequest('This confirmation link is invalid or has expired', 'token');
  },
};
