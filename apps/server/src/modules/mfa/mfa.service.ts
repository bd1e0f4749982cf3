import { RECOVERY_CODE_COUNT } from '@fleetgate/shared/schemas/mfa';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database';
import { AppError, conflict } from '../../http/errors';
import type { AuthContext } from '../../plugins/auth';
import { type AuditEntry, audited, auditIdentity } from '../audit/audit.service';
import { clearSecondStep } from './clear';
import { newRecoveryCodes, recoveryCodeHash } from './codes';
import { mfaRepository } from './mfa.repository';
import { isMfaMethod, totpContext } from './second-step';
import { newTotpSecret, totpProvisioning, totpStep } from './totp';

const alreadyOn = () =>
  conflict('Two-step verification is on already. Remove it first to change the method.');

/** Enrolment and removal of the second step (account settings, the MFA_MANDATORY notice). */
export function createMfaService(app: FastifyInstance) {
  const { db } = app;

  function auditEntry(
    auth: AuthContext,
    action: string,
    ip: string,
    details?: Record<string, unknown>,
  ): AuditEntry {
    return {
      action,
      ...auditIdentity(auth),
      companyId: auth.principal.company.id,
      targetType: 'user',
      targetId: auth.principal.id,
      ...(details ? { details } : {}),
      ip,
    };
  }

  async function issueRecoveryCodes(tx: Db, userId: number): Promise<string[]> {
    const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
    await mfaRepository.replaceRecoveryCodes(
      tx,
      userId,
      codes.map((c) => recoveryCodeHash(c)!),
    );
    return codes;
  }

  async function currentMethod(userId: number) {
    const user = await mfaRepository.userForMfa(db, userId);
    if (!user) throw AppError.of(401, 'UNAUTHORIZED', 'Authentication required');
    return user;
  }

  return {
    async status(auth: AuthContext, mandatory: boolean) {
      const user = await currentMethod(auth.principal.id);
      const oidc = app.mfa.oidc;
      const issuer = app.config.oidc?.issuer;
      return {
        method: isMfaMethod(user.mfaType) ? user.mfaType : null,
        mandatory,
        recovery_codes_left: user.mfaType === 'totp' ? await mfaRepository.recoveryCodesLeft(db, user.id) : 0,
        vendor: {
          enabled: oidc.enabled,
          name: oidc.name,
          linked: issuer ? await mfaRepository.hasIdentity(db, user.id, issuer) : false,
        },
      };
    },

    /** A new secret to scan; it counts only once a code from it is confirmed. */
    async startTotp(auth: AuthContext) {
      const user = await currentMethod(auth.principal.id);
      if (user.mfaType) throw alreadyOn();
      const secret = newTotpSecret();
      await mfaRepository.putPendingTotp(db, user.id, app.secrets.encrypt(secret, totpContext(user.id)));
      const { otpauthUrl, qrCode } = await totpProvisioning(secret, user.email, await app.mail.appName());
      return { secret, otpauth_url: otpauthUrl, qr_code: qrCode };
    },

    /** The first code proves the app works: TOTP is on and the recovery codes are shown once. */
    async confirmTotp(auth: AuthContext, code: string, ip: string) {
      const user = await currentMethod(auth.principal.id);
      if (user.mfaType) throw alreadyOn();
      const pending = await mfaRepository.totpOf(db, user.id);
      if (!pending || pending.confirmedAt) throw conflict('Start the set-up again: no code app is waiting');
      const step = totpStep(app.secrets.decrypt(pending.secretEncrypted, totpContext(user.id)), code);
      if (step === null) throw AppError.of(422, 'CONFIRMATION_FAILED', 'Invalid verification code', 'code');
      return audited(
        db,
        async (tx) => {
          if (!(await mfaRepository.confirmTotp(tx, user.id, step, new Date()))) throw alreadyOn();
          if (!(await mfaRepository.setMethodIfNone(tx, user.id, 'totp'))) throw alreadyOn();
          return issueRecoveryCodes(tx, user.id);
        },
        () => auditEntry(auth, 'mfa.enabled', ip, { method: 'totp' }),
      );
    },

    async startEmail(auth: AuthContext) {
      const user = await currentMethod(auth.principal.id);
      if (user.mfaType) throw alreadyOn();
      return app.mfa.secondStep.open(user, 'email', 'enrol-email');
    },

    async confirmEmail(auth: AuthContext, sessionId: string, code: string, ip: string) {
      const user = await currentMethod(auth.principal.id);
      if (user.mfaType) throw alreadyOn();
      await app.mfa.secondStep.verify(user, { session_id: sessionId, session_code: code }, 'enrol-email');
      await audited(
        db,
        async (tx) => {
          if (!(await mfaRepository.setMethodIfNone(tx, user.id, 'email'))) throw alreadyOn();
        },
        () => auditEntry(auth, 'mfa.enabled', ip, { method: 'email' }),
      );
    },

    /** Links the identity from a finished vendor ID sign-in and makes it the second step. */
    async linkVendor(auth: AuthContext, identity: { issuer: string; subject: string }, ip: string) {
      const user = await currentMethod(auth.principal.id);
      if (user.mfaType) throw alreadyOn();
      const owner = await mfaRepository.identityUser(db, identity.issuer, identity.subject);
      if (owner !== undefined && owner !== user.id) {
        throw conflict('This vendor ID is linked to another user already');
      }
      await audited(
        db,
        async (tx) => {
          if (owner === undefined) await mfaRepository.link(tx, user.id, identity.issuer, identity.subject);
          if (!(await mfaRepository.setMethodIfNone(tx, user.id, 'vendor'))) throw alreadyOn();
        },
        () => auditEntry(auth, 'mfa.enabled', ip, { method: 'vendor' }),
      );
    },

    /**
     * Turns the second step off. Access tokens need it (issue 4), so they are revoked too;
     * the vendor link goes with it.
     */
    async remove(auth: AuthContext, ip: string) {
      const user = await currentMethod(auth.principal.id);
      if (!user.mfaType) throw conflict('Two-step verification is off already');
      await audited(
        db,
        (tx) => clearSecondStep(tx, user.id),
        (revoked) => auditEntry(auth, 'mfa.disabled', ip, { method: user.mfaType, tokens_revoked: revoked }),
      );
    },

    async regenerateRecoveryCodes(auth: AuthContext, ip: string) {
      const user = await currentMethod(auth.principal.id);
      if (user.mfaType !== 'totp') throw conflict('Recovery codes come with a code app (TOTP)');
      return audited(
        db,
        (tx) => issueRecoveryCodes(tx, user.id),
        () => auditEntry(auth, 'mfa.recovery_codes_regenerated', ip),
      );
    },
  };
}

export type MfaService = ReturnType<typeof createMfaService>;
