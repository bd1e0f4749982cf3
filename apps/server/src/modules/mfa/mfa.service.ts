import { RECOVERY_CODE_COUNT } from '@fleetgate/shared/schemas/mfa';
import type { Db } from '#src/db/database';
import { AppError, conflict, unauthorized } from '#src/http/errors';
import { accountRepository } from '../account/account.repository';
import { audited } from '../audit/audit.service';
import { callerAudit, type PublicContext, type ServiceContext } from '../service-context';
import { clearSecondStep } from './clear';
import { newRecoveryCodes, recoveryCodeHash } from './codes';
import { mfaRepository } from './mfa.repository';
import { oidcOffer, oidcUnavailable } from './oidc';
import { isMfaMethod, type SecondStepInput, secondStep, totpContext, type VendorStart } from './second-step';
import { newTotpSecret, totpProvisioning, totpStep } from './totp';

const alreadyOn = () =>
  conflict('Two-step verification is on already. Remove it first to change the method.');

/** An audit entry about the caller's own second step. */
const auditEntry = (ctx: ServiceContext, action: string, details?: Record<string, unknown>) =>
  callerAudit(ctx, {
    action,
    companyId: ctx.caller.principal.company.id,
    targetType: 'user',
    targetId: ctx.caller.principal.id,
    ...(details ? { details } : {}),
  });

async function issueRecoveryCodes(tx: Db, userId: number): Promise<string[]> {
  const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
  await mfaRepository.replaceRecoveryCodes(
    tx,
    userId,
    codes.map((c) => recoveryCodeHash(c)!),
  );
  return codes;
}

/** The caller's current second step, read afresh (the session's copy may be older). */
async function currentMethod(ctx: ServiceContext) {
  const user = await mfaRepository.userForMfa(ctx.db, ctx.caller.principal.id);
  if (!user) throw AppError.of(401, 'UNAUTHORIZED', 'Authentication required');
  return user;
}

/**
 * Two-step verification (product §1, §4, §6): the sign-in's second step, and enrolment and
 * removal in account settings and on the MFA_MANDATORY notice, each on the caller's own
 * account. While impersonating, the real actor confirmed their password first (423).
 */
export const mfaService = {
  /**
   * The second step of a password sign-in (product §4): returns the sign-in's method once the
   * user may have a session; throws MFA_REQUIRED with the challenge until then. `vendor`
   * starts the identity-service sign-in for a user whose second step is vendor ID.
   */
  async secondStepOfSignIn(
    ctx: PublicContext,
    userId: number,
    input: SecondStepInput,
    vendor: VendorStart,
  ): Promise<string> {
    const user = await mfaRepository.userForMfa(ctx.db, userId);
    if (!user) throw unauthorized();
    await secondStep.requireForLogin(ctx, user, input, { purpose: 'login', vendor });
    return user.mfaType ? `password+${user.mfaType}` : 'password';
  },

  async status(ctx: ServiceContext) {
    const mandatory = await accountRepository.mfaMandatoryFor(ctx.db, ctx.caller.principal.company.id);
    const user = await currentMethod(ctx);
    const issuer = ctx.config.oidc?.issuer;
    return {
      method: isMfaMethod(user.mfaType) ? user.mfaType : null,
      mandatory,
      recoveryCodesLeft: user.mfaType === 'totp' ? await mfaRepository.recoveryCodesLeft(ctx.db, user.id) : 0,
      vendor: {
        ...oidcOffer(ctx.config),
        linked: issuer ? await mfaRepository.hasIdentity(ctx.db, user.id, issuer) : false,
      },
    };
  },

  /** A new secret to scan; it counts only once a code from it is confirmed. */
  async startTotp(ctx: ServiceContext) {
    const user = await currentMethod(ctx);
    if (user.mfaType) throw alreadyOn();
    const secret = newTotpSecret();
    await mfaRepository.putPendingTotp(ctx.db, user.id, ctx.secrets.encrypt(secret, totpContext(user.id)));
    const { otpauthUrl, qrCode } = await totpProvisioning(secret, user.email, await ctx.mail.appName());
    return { secret, otpauth_url: otpauthUrl, qr_code: qrCode };
  },

  /** The first code proves the app works: TOTP is on and the recovery codes are shown once. */
  async confirmTotp(ctx: ServiceContext, code: string) {
    const user = await currentMethod(ctx);
    if (user.mfaType) throw alreadyOn();
    const pending = await mfaRepository.totpOf(ctx.db, user.id);
    if (!pending || pending.confirmedAt) throw conflict('Start the set-up again: no code app is waiting');
    const step = totpStep(ctx.secrets.decrypt(pending.secretEncrypted, totpContext(user.id)), code);
    if (step === null) throw AppError.of(422, 'CONFIRMATION_FAILED', 'Invalid verification code', 'code');
    return audited(
      ctx.db,
      async (tx) => {
        if (!(await mfaRepository.confirmTotp(tx, user.id, step, new Date()))) throw alreadyOn();
        if (!(await mfaRepository.setMethodIfNone(tx, user.id, 'totp'))) throw alreadyOn();
        return issueRecoveryCodes(tx, user.id);
      },
      () => auditEntry(ctx, 'mfa.enabled', { method: 'totp' }),
    );
  },

  /** Sends a code to the user's address; confirming it turns e-mail codes on. */
  async startEmail(ctx: ServiceContext) {
    const user = await currentMethod(ctx);
    if (user.mfaType) throw alreadyOn();
    return secondStep.open(ctx, user, 'email', 'enrol-email');
  },

  async confirmEmail(ctx: ServiceContext, sessionId: string, code: string) {
    const user = await currentMethod(ctx);
    if (user.mfaType) throw alreadyOn();
    await secondStep.verify(ctx, user, { session_id: sessionId, session_code: code }, 'enrol-email');
    await audited(
      ctx.db,
      async (tx) => {
        if (!(await mfaRepository.setMethodIfNone(tx, user.id, 'email'))) throw alreadyOn();
      },
      () => auditEntry(ctx, 'mfa.enabled', { method: 'email' }),
    );
  },

  /**
   * Starts linking vendor ID: `start` sends the browser to the identity service, whose
   * callback comes back to `linkVendor`. Answers where the browser goes.
   */
  async startVendorLink(ctx: ServiceContext, start: (userId: number) => Promise<{ url: string }>) {
    if (!oidcOffer(ctx.config).enabled) throw oidcUnavailable();
    if (ctx.caller.principal.mfaType) throw alreadyOn();
    const { url } = await start(ctx.caller.principal.id);
    return url;
  },

  /** Links the identity from a finished vendor ID sign-in and makes it the second step. */
  async linkVendor(ctx: ServiceContext, identity: { issuer: string; subject: string }) {
    const user = await currentMethod(ctx);
    if (user.mfaType) throw alreadyOn();
    const owner = await mfaRepository.identityUser(ctx.db, identity.issuer, identity.subject);
    if (owner !== undefined && owner !== user.id) {
      throw conflict('This vendor ID is linked to another user already');
    }
    await audited(
      ctx.db,
      async (tx) => {
        if (owner === undefined) await mfaRepository.link(tx, user.id, identity.issuer, identity.subject);
        if (!(await mfaRepository.setMethodIfNone(tx, user.id, 'vendor'))) throw alreadyOn();
      },
      () => auditEntry(ctx, 'mfa.enabled', { method: 'vendor' }),
    );
  },

  /**
   * Turns the second step off. Personal access tokens need one, so they are revoked too;
   * the vendor link goes with it.
   */
  async remove(ctx: ServiceContext) {
    const user = await currentMethod(ctx);
    if (!user.mfaType) throw conflict('Two-step verification is off already');
    await audited(
      ctx.db,
      (tx) => clearSecondStep(tx, user.id),
      (revoked) => auditEntry(ctx, 'mfa.disabled', { method: user.mfaType, tokens_revoked: revoked }),
    );
  },

  /** New recovery codes; the old ones stop working. */
  async regenerateRecoveryCodes(ctx: ServiceContext) {
    const user = await currentMethod(ctx);
    if (user.mfaType !== 'totp') throw conflict('Recovery codes come with a code app (TOTP)');
    return audited(
      ctx.db,
      (tx) => issueRecoveryCodes(tx, user.id),
      () => auditEntry(ctx, 'mfa.recovery_codes_regenerated'),
    );
  },
};
