import { AUTH_BASE } from '@fleetgate/shared/constants';
import {
  activationVerifyBodySchema,
  contactBodySchema,
  passwordChangeBodySchema,
  profileBodySchema,
  profileSchema,
  tosBodySchema,
} from '@fleetgate/shared/schemas/account';
import { okBody } from '@fleetgate/shared/schemas/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashPassword, verifyPassword } from '../../auth/passwords';
import { AppError, conflict, forbidden, unauthorized } from '../../http/errors';
import { requireAuth } from '../../plugins/access';
import { audited, auditIdentity } from '../audit/audit.service';
import { sessionsRepository } from '../auth/sessions.repository';
import { accountRepository } from './account.repository';
import { createActivation } from './activation';
import { publicBase } from './links';

const ok = z.object({ ok: z.literal(true) });

/** Confirmation mails per user in 15 minutes. */
const resendLimit = {
  max: 3,
  timeWindow: '15 minutes',
  keyGenerator: (request: FastifyRequest) => `activation:${request.auth?.principal.id ?? request.ip}`,
};

/**
 * The user's own account (issue 4 account settings; spec §4 terms and e-mail modal; §7
 * PUT /account/user and POST {auth}/user/activation/resend).
 */
export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const activation = createActivation(app);
  const tags = ['account'];

  async function profileOf(userId: number) {
    const row = await accountRepository.profile(app.db, userId);
    if (!row) throw unauthorized();
    return {
      id: row.id,
      email: row.email,
      username: row.username,
      avatar_url: row.avatarUrl,
      country_iso_code: row.countryIsoCode,
      email_verified: row.emailVerifiedAt !== null,
    };
  }

  r.get(
    '/api/user/profile',
    {
      config: { access: { authenticated: true } },
      schema: { tags, summary: 'The user’s profile', response: { 200: okBody(profileSchema) } },
    },
    async (request) => ({ success: true as const, data: await profileOf(requireAuth(request).principal.id) }),
  );

  r.put(
    '/api/user/profile',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Change username, avatar URL or country (nothing else: other fields are refused)',
        body: profileBodySchema,
        response: { 200: okBody(profileSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { username, avatar_url, country_iso_code } = request.body;
      const changes = {
        ...(username === undefined ? {} : { username }),
        ...(avatar_url === undefined ? {} : { avatarUrl: avatar_url || null }),
        ...(country_iso_code === undefined ? {} : { countryIsoCode: country_iso_code || null }),
      };
      await audited(
        app.db,
        (tx) => accountRepository.updateProfile(tx, auth.principal.id, changes),
        () => ({
          action: 'account.profile_updated',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          details: { fields: Object.keys(request.body) },
          ip: request.ip,
        }),
      );
      return {
        success: true as const,
        data: await profileOf(auth.principal.id),
        message: 'Profile updated successfully',
      };
    },
  );

  r.put(
    '/api/user/password',
    {
      config: { access: { authenticated: true }, rateLimit: { max: 10, timeWindow: '15 minutes' } },
      schema: {
        tags,
        summary: 'Change the password (the current one is needed); other sessions end',
        body: passwordChangeBodySchema,
        response: { 200: okBody(ok) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const current = await accountRepository.profile(app.db, auth.principal.id);
      if (!(await verifyPassword(current?.passwordHash, request.body.current_password))) {
        throw AppError.of(422, 'CONFIRMATION_FAILED', 'Current password is incorrect', 'current_password');
      }
      const now = new Date();
      const passwordHash = await hashPassword(request.body.password);
      const ended = await audited(
        app.db,
        async (tx) => {
          await accountRepository.setPassword(tx, auth.principal.id, passwordHash, now);
          return sessionsRepository.revokeWhere(
            tx,
            auth.principal.id,
            { except: auth.session.id },
            'password_changed',
            now,
          );
        },
        (sessions) => ({
          action: 'account.password_changed',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          details: { sessions_ended: sessions.length },
          ip: request.ip,
        }),
      );
      for (const id of ended) app.realtime.disconnectSession(id);
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Password changed successfully',
      };
    },
  );

  r.put(
    '/api/user/contact',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'The “Please enter your email address” modal: address and a username that is not it',
        body: contactBodySchema,
        response: { 200: okBody(profileSchema) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const { email, username } = request.body;
      const changed = email !== auth.principal.email;
      if (changed) {
        // A new sign-in address asked for a fresh password (modules/auth/sensitive-actions.ts).
        if (await accountRepository.emailTaken(app.db, email, auth.principal.id)) {
          throw conflict('This email address is in use by another user', 'email');
        }
      }
      await audited(
        app.db,
        (tx) => accountRepository.setContact(tx, auth.principal.id, email, username, changed),
        () => ({
          action: 'account.contact_updated',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          details: changed ? { email_from: auth.principal.email, email_to: email } : { username },
          ip: request.ip,
        }),
      );
      if (changed) {
        await activation.send(
          { id: auth.principal.id, email, companyId: auth.principal.company.id },
          publicBase(app, request),
        );
      }
      return {
        success: true as const,
        data: await profileOf(auth.principal.id),
        message: changed ? 'Email confirmation sent successfully' : 'Profile updated successfully',
      };
    },
  );

  r.put(
    '/api/account/user',
    {
      config: { access: { authenticated: true } },
      schema: {
        tags,
        summary: 'Accept the terms of service / data agreement (spec §7 PUT /account/user)',
        body: tosBodySchema,
        response: { 200: okBody(z.object({ tos_accepted: z.boolean() })) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      // Consent is the person's own: the support person acting as them cannot give it.
      if (auth.actor) throw forbidden('Terms can only be accepted by the user');
      const accepted = request.body.tos_accepted;
      await audited(
        app.db,
        (tx) => accountRepository.setTos(tx, auth.principal.id, accepted ? new Date() : null),
        () => ({
          action: accepted ? 'account.tos_accepted' : 'account.tos_withdrawn',
          ...auditIdentity(auth),
          companyId: auth.principal.company.id,
          ip: request.ip,
        }),
      );
      return { success: true as const, data: { tos_accepted: accepted } };
    },
  );

  r.post(
    `${AUTH_BASE}/user/activation/resend`,
    {
      config: { access: { authenticated: true }, rateLimit: resendLimit },
      schema: {
        tags: ['session'],
        summary: 'Send the e-mail confirmation link again (spec §7 Session)',
        response: { 200: okBody(ok) },
      },
    },
    async (request) => {
      const auth = requireAuth(request);
      const profile = await profileOf(auth.principal.id);
      if (profile.email_verified) throw conflict('Your email address is confirmed already');
      await activation.send(
        { id: auth.principal.id, email: profile.email, companyId: auth.principal.company.id },
        publicBase(app, request),
      );
      return {
        success: true as const,
        data: { ok: true as const },
        message: 'Email confirmation sent successfully',
      };
    },
  );

  r.post(
    `${AUTH_BASE}/user/activation/verify`,
    {
      config: { access: { public: true }, rateLimit: { max: 30, timeWindow: '15 minutes' } },
      schema: {
        tags: ['session'],
        summary: 'Confirm the e-mail address with the link’s token',
        body: activationVerifyBodySchema,
        response: { 200: okBody(z.object({ email: z.string() })) },
      },
    },
    async (request) => {
      const { userId, email } = activation.read(request.body.token);
      const confirmed = await audited(
        app.db,
        (tx) => accountRepository.verifyEmail(tx, userId, email, new Date()),
        (done) => (done ? { action: 'account.email_confirmed', actorUserId: userId, ip: request.ip } : null),
      );
      if (!confirmed) {
        const current = await accountRepository.profile(app.db, userId);
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
      return { success: true as const, data: { email }, message: 'Email address confirmed successfully' };
    },
  );
}
