import type { profileBodySchema } from '@fleetgate/shared/schemas/account';
import type { z } from 'zod';
import { hashPassword, verifyPassword } from '#src/auth/passwords';
import { AppError, conflict, forbidden, unauthorized } from '#src/http/errors';
import { audited } from '../audit/audit.service';
import { AUTH_MAIL_TEMPLATES, accountLockedMail } from '../auth/auth.mails';
import { sessionsRepository } from '../auth/sessions.repository';
import { impersonationService } from '../impersonation/impersonation.service';
import { callerAudit, type PublicContext, type ServiceContext } from '../service-context';
import { accountRepository } from './account.repository';
import { blockedError } from './account-state';
import { activation } from './activation';
import { LOGIN_PAGE } from './links';

/** An audit entry about the caller's own account. */
const auditEntry = (ctx: ServiceContext, action: string, details?: Record<string, unknown>) =>
  callerAudit(ctx, {
    action,
    companyId: ctx.caller.principal.company.id,
    ...(details ? { details } : {}),
  });

/**
 * The user's own account (account settings; product §4 terms and e-mail modal; §6 blocking
 * conditions; §7 PUT /account/user and POST {auth}/user/activation/resend): each function
 * acts on the caller's own record only.
 */
export const accountService = {
  /**
   * The signed-in user (GET /api/user). product §6 blocking conditions answer here with their
   * code, so that the console shows the notice screen; the support person acting as the
   * user, and a personal access token, are not held by them. Answers the end of the
   * impersonation access the user granted (product §3 impersonation_access_limit).
   */
  async currentUser(ctx: ServiceContext) {
    const { actor, token, principal } = ctx.caller;
    if (!actor && !token && principal.block) throw blockedError(principal.block, { email: principal.email });
    return { impersonationLimit: impersonationService.accessOf(ctx) };
  },

  async profile(ctx: ServiceContext) {
    const row = await accountRepository.profile(ctx.db, ctx.caller.principal.id);
    if (!row) throw unauthorized();
    return row;
  },

  /** Username, avatar URL and country; nothing else (the body schema refuses other fields). */
  async updateProfile(ctx: ServiceContext, body: z.output<typeof profileBodySchema>) {
    const { username, avatar_url, country_iso_code } = body;
    const changes = {
      ...(username === undefined ? {} : { username }),
      ...(avatar_url === undefined ? {} : { avatarUrl: avatar_url || null }),
      ...(country_iso_code === undefined ? {} : { countryIsoCode: country_iso_code || null }),
    };
    await audited(
      ctx.db,
      (tx) => accountRepository.updateProfile(tx, ctx.caller.principal.id, changes),
      () => auditEntry(ctx, 'account.profile_updated', { fields: Object.keys(body) }),
    );
    return this.profile(ctx);
  },

  /** A new password, the current one first; the user's other sessions end. */
  async changePassword(ctx: ServiceContext, input: { current_password: string; password: string }) {
    const { principal, session } = ctx.caller;
    const current = await accountRepository.profile(ctx.db, principal.id);
    if (!(await verifyPassword(current?.passwordHash, input.current_password))) {
      throw AppError.of(422, 'CONFIRMATION_FAILED', 'Current password is incorrect', 'current_password');
    }
    const now = new Date();
    const passwordHash = await hashPassword(input.password);
    const ended = await audited(
      ctx.db,
      async (tx) => {
        await accountRepository.setPassword(tx, principal.id, passwordHash, now);
        return sessionsRepository.revokeWhere(
          tx,
          principal.id,
          { except: session.id },
          'password_changed',
          now,
        );
      },
      (sessions) => auditEntry(ctx, 'account.password_changed', { sessions_ended: sessions.length }),
    );
    for (const id of ended) ctx.realtime.disconnectSession(id);
  },

  /**
   * The “Please enter your email address” modal: address and username. A new address is
   * unconfirmed until its e-mailed link is opened (the step-up asked for a fresh password).
   */
  async setContact(ctx: ServiceContext, input: { email: string; username: string }) {
    const { principal } = ctx.caller;
    const { email, username } = input;
    const emailChanged = email !== principal.email;
    if (emailChanged && (await accountRepository.emailTaken(ctx.db, email, principal.id))) {
      throw conflict('This email address is in use by another user', 'email');
    }
    await audited(
      ctx.db,
      (tx) => accountRepository.setContact(tx, principal.id, email, username, emailChanged),
      () =>
        auditEntry(
          ctx,
          'account.contact_updated',
          emailChanged ? { email_from: principal.email, email_to: email } : { username },
        ),
    );
    if (emailChanged)
      await activation.send(ctx, { id: principal.id, email, companyId: principal.company.id });
    return { profile: await this.profile(ctx), emailChanged };
  },

  /** product §7 PUT /account/user: consent is the person's own, never given by whoever acts as them. */
  async setTerms(ctx: ServiceContext, accepted: boolean) {
    if (ctx.caller.actor) throw forbidden('Terms can only be accepted by the user');
    await audited(
      ctx.db,
      (tx) => accountRepository.setTos(tx, ctx.caller.principal.id, accepted ? new Date() : null),
      () => auditEntry(ctx, accepted ? 'account.tos_accepted' : 'account.tos_withdrawn'),
    );
    return accepted;
  },

  /** Sends the e-mail confirmation link again, unless the address is confirmed. */
  async resendActivation(ctx: ServiceContext) {
    const profile = await this.profile(ctx);
    if (profile.emailVerifiedAt !== null) throw conflict('Your email address is confirmed already');
    await activation.send(ctx, {
      id: ctx.caller.principal.id,
      email: profile.email,
      companyId: ctx.caller.principal.company.id,
    });
  },

  /** Confirms the address a link was made for (a public call: the link is the proof). */
  async verifyEmail(ctx: PublicContext, token: string) {
    const { userId, email } = activation.read(ctx, token);
    const confirmed = await audited(
      ctx.db,
      (tx) => accountRepository.verifyEmail(tx, userId, email, new Date()),
      (done) => (done ? { action: 'account.email_confirmed', actorUserId: userId, ip: ctx.address } : null),
    );
    if (!confirmed) {
      const current = await accountRepository.profile(ctx.db, userId);
      // Opened twice: fine. For an address that is no longer the user's: not.
      if (current?.email !== email || !current.emailVerifiedAt) {
        throw AppError.of(
          400,
          'VALIDATION_ERROR',
          'This confirmation link is invalid or has expired',
          'token',
        );
      }
    }
    return email;
  },

  /**
   * Tells an account's owner that it is locked (docs/security.md, guessing limits), with
   * the single-use link that signs them in past the lock.
   */
  async sendLockNotice(ctx: PublicContext, email: string, unlockToken: string) {
    const url = `${ctx.baseUrl}${LOGIN_PAGE}?unlock=${unlockToken}`;
    const mail = accountLockedMail({ appName: await ctx.mail.appName(), url });
    await ctx.mail.send({ to: email, template: AUTH_MAIL_TEMPLATES.accountLocked, ...mail });
  },
};
