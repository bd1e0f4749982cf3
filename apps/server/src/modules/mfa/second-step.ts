import { randomUUID } from 'node:crypto';
import { MFA_CODE_TTL_MINUTES, MFA_MAX_ATTEMPTS, type MfaMethod } from '@fleetgate/shared/schemas/mfa';
import { hashPassword, verifyPassword } from '#src/auth/passwords';
import { AppError } from '#src/http/errors';
import { recordAudit } from '../audit/audit.service';
import type { PublicContext } from '../service-context';
import { newEmailCode, recoveryCodeHash } from './codes';
import { MFA_MAIL_TEMPLATES, mfaCodeMail, TOTP_REUSED_NOTICE, totpReusedMail } from './mfa.mails';
import { type ChallengeRow, mfaRepository } from './mfa.repository';
import { totpStep } from './totp';

/** What a challenge is for: each checks only its own kind (a sign-in code never enrols). */
export type ChallengePurpose = 'login' | 'oidc-login' | 'enrol-email';

/** The second-step payload of product §3 as the client resends it. */
export type SecondStepInput = { session_code?: string; session_id?: string; session_uuid?: string };

export type MfaUser = { id: number; email: string; mfaType: string | null; companyId: number };

/**
 * Starts a sign-in at the vendor identity service for a challenge (oidc.ts `start`, which
 * sets the flow's cookie on the reply): where the browser goes, and the flow's state.
 */
export type VendorStart = (challengeId: string) => Promise<{ url: string; state: string }>;

const TTL_MS = MFA_CODE_TTL_MINUTES * 60_000;

/** The secret of a confirmed TOTP enrolment is sealed with the user's id as context. */
export const totpContext = (userId: number) => `totp:${userId}`;

export function isMfaMethod(value: string | null): value is MfaMethod {
  return value === 'email' || value === 'totp' || value === 'vendor';
}

const MESSAGES: Record<MfaMethod, string> = {
  email: 'Enter the code we sent to your email address',
  totp: 'Enter the code from your authenticator app, or one of your recovery codes',
  vendor: 'Sign in with your vendor ID to continue',
};

/** A dead challenge: the dialog closes and the user starts again (product §4: other errors close it). */
const expired = () => AppError.of(401, 'UNAUTHORIZED', 'The verification has expired. Please sign in again.');
const tooMany = () => AppError.of(401, 'UNAUTHORIZED', 'Too many wrong codes. Please sign in again.');

async function sendEmailCode(ctx: PublicContext, user: MfaUser, code: string, purpose: 'login' | 'enrol') {
  const mail = mfaCodeMail({ appName: await ctx.mail.appName(), code, purpose });
  await ctx.mail.send({
    to: user.email,
    template: MFA_MAIL_TEMPLATES.code,
    ...mail,
    companyId: user.companyId,
  });
}

/**
 * A time-based code presented a second time (ASVS V2.8.5): refused by the caller, logged
 * here, and its holder told in the console and by e-mail, since someone may have seen it.
 */
async function reportReusedTotp(ctx: PublicContext, user: MfaUser) {
  await recordAudit(ctx.db, { action: 'auth.totp_reused', actorUserId: user.id });
  await ctx.notifications.notify([user.id], { type: 'message', summary: TOTP_REUSED_NOTICE });
  await ctx.mail.send({
    to: user.email,
    template: MFA_MAIL_TEMPLATES.totpReused,
    ...totpReusedMail(await ctx.mail.appName()),
    companyId: user.companyId,
  });
}

/** The MFA_REQUIRED answer (status 401, as the sign-in's other refusals). */
function required(method: MfaMethod, challengeId: string, meta: Record<string, unknown> = {}): AppError {
  return new AppError(401, [{ code: 'MFA_REQUIRED', message: MESSAGES[method] }], {
    mfa_method: method,
    mfa_type: method,
    session_id: challengeId,
    session_uuid: challengeId,
    ...meta,
  });
}

async function codeMatches(
  ctx: PublicContext,
  challenge: ChallengeRow,
  user: MfaUser,
  code: string,
): Promise<string | null> {
  if (challenge.method === 'email') {
    return (await verifyPassword(challenge.codeHash, code)) ? null : 'Invalid verification code';
  }
  if (challenge.method === 'totp') {
    const totp = await mfaRepository.totpOf(ctx.db, user.id);
    if (!totp?.confirmedAt) return 'Invalid verification code';
    const step = totpStep(ctx.secrets.decrypt(totp.secretEncrypted, totpContext(user.id)), code);
    if (step !== null) {
      if (await mfaRepository.useTotpStep(ctx.db, user.id, step)) return null;
      await reportReusedTotp(ctx, user);
      return 'This code was used already. Wait for the next one.';
    }
    // spec-free but expected: a recovery code stands in for a TOTP code, once.
    const hash = recoveryCodeHash(code);
    if (hash && (await mfaRepository.useRecoveryCode(ctx.db, user.id, hash, new Date()))) return null;
    return 'Invalid verification code';
  }
  return MESSAGES.vendor;
}

/** Opens a challenge; for e-mail the code goes out now. */
async function open(
  ctx: PublicContext,
  user: MfaUser,
  method: MfaMethod,
  purpose: ChallengePurpose,
  extra: { oidcState?: string; id?: string } = {},
): Promise<ChallengeRow> {
  const now = new Date();
  await mfaRepository.deleteStaleChallenges(ctx.db, user.id, now);
  const plain = method === 'email' ? newEmailCode() : null;
  const row: ChallengeRow = {
    id: extra.id ?? randomUUID(),
    userId: user.id,
    purpose,
    method,
    codeHash: plain ? await hashPassword(plain) : null,
    oidcState: extra.oidcState ?? null,
    oidcNonce: null,
    attempts: 0,
    createdAt: now,
    expiresAt: new Date(now.getTime() + TTL_MS),
    usedAt: null,
  };
  await mfaRepository.insertChallenge(ctx.db, row);
  if (plain) await sendEmailCode(ctx, user, plain, purpose === 'enrol-email' ? 'enrol' : 'login');
  return row;
}

/** Checks a resent code against its challenge; throws unless it is right. */
async function verify(
  ctx: PublicContext,
  user: MfaUser,
  input: SecondStepInput,
  purpose: ChallengePurpose,
  oidcState?: string,
): Promise<ChallengeRow> {
  const id = input.session_id ?? input.session_uuid;
  const challenge = id ? await mfaRepository.challenge(ctx.db, id) : undefined;
  const now = new Date();
  if (
    !challenge ||
    challenge.userId !== user.id ||
    challenge.purpose !== purpose ||
    (oidcState !== undefined && challenge.oidcState !== oidcState)
  ) {
    throw expired();
  }
  // The attempt is counted before the code is checked, so a burst of guesses sent at
  // once gets no more checks than guesses sent one by one.
  const attempt = await mfaRepository.takeAttempt(ctx.db, challenge.id, now, MFA_MAX_ATTEMPTS);
  if (attempt === undefined) throw challenge.attempts >= MFA_MAX_ATTEMPTS ? tooMany() : expired();
  const wrong = await codeMatches(ctx, challenge, user, input.session_code ?? '');
  if (wrong) {
    if (attempt >= MFA_MAX_ATTEMPTS) throw tooMany();
    const left = MFA_MAX_ATTEMPTS - attempt;
    throw AppError.of(
      422,
      'CONFIRMATION_FAILED',
      `${wrong} (${left} ${left === 1 ? 'attempt' : 'attempts'} left)`,
      'session_code',
    );
  }
  if (!(await mfaRepository.useChallenge(ctx.db, challenge.id, now))) throw expired();
  return challenge;
}

/**
 * The second step of product §4: MFA_REQUIRED with `mfa_method`, `session_id` and
 * `session_uuid` (both carry the challenge id: product §3 names either), then the resent
 * request with `session_code`. Codes expire in 10 minutes, work once, are stored hashed,
 * and a challenge takes at most MFA_MAX_ATTEMPTS wrong codes (docs/security.md, guessing
 * limits).
 */
export const secondStep = {
  required,
  open,
  verify,

  /**
   * The sign-in's second step: returns when the user may have a session. Without a code
   * it opens a challenge and throws MFA_REQUIRED; with one it checks it. The vendor
   * method needs the caller to start the identity-service sign-in (`vendor`).
   */
  async requireForLogin(
    ctx: PublicContext,
    user: MfaUser,
    input: SecondStepInput,
    options: {
      purpose: 'login' | 'oidc-login';
      oidcState?: string;
      vendor?: VendorStart;
    },
  ): Promise<void> {
    const method = user.mfaType;
    if (!isMfaMethod(method)) return;
    if (input.session_code !== undefined && (input.session_id || input.session_uuid)) {
      await verify(ctx, user, input, options.purpose, options.oidcState);
      return;
    }
    if (method === 'vendor') {
      if (!options.vendor) throw AppError.of(401, 'UNAUTHORIZED', MESSAGES.vendor);
      const id = randomUUID();
      const { url, state } = await options.vendor(id);
      await open(ctx, user, method, options.purpose, { id, oidcState: state });
      throw required(method, id, { authorization_url: url });
    }
    const challenge = await open(ctx, user, method, options.purpose, { oidcState: options.oidcState });
    throw required(method, challenge.id);
  },
};
