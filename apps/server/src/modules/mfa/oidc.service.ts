import { MFA_MAX_ATTEMPTS } from '@fleetgate/shared/schemas/mfa';
import { AppError, forbidden, unauthorized } from '#src/http/errors';
import type { AuthContext } from '#src/plugins/auth';
import { type PublicContext, withParts } from '../service-context';
import { mfaRepository } from './mfa.repository';
import { mfaService } from './mfa.service';
import type { OidcFlow, OidcIdentity } from './oidc';
import { type SecondStepInput, secondStep } from './second-step';

/** product §6: an identity-service user nobody invited gets the NOT_INVITED_EXTERNAL_USER notice. */
const notInvited = (email: string | null) =>
  new AppError(
    403,
    [
      {
        code: 'NOT_INVITED_EXTERNAL_USER',
        message: `No user account is linked to this vendor ID${email ? ` (${email})` : ''}. Ask your administrator for an invitation.`,
      },
    ],
    { email },
  );

const expired = () => unauthorized('The verification has expired. Please sign in again.');

/** Who a vendor sign-in is: the linked user, else an invited user with that verified address. */
async function userOf(ctx: PublicContext, identity: OidcIdentity): Promise<number | undefined> {
  const linked = await mfaRepository.identityUser(ctx.db, identity.issuer, identity.subject);
  if (linked !== undefined) return linked;
  if (!identity.email || !identity.emailVerified) return undefined;
  const user = await mfaRepository.invitedUserByEmail(ctx.db, identity.email);
  if (!user || (await mfaRepository.hasIdentity(ctx.db, user.id, identity.issuer))) return undefined;
  await mfaRepository.link(ctx.db, user.id, identity.issuer, identity.subject);
  return user.id;
}

/**
 * Sign-in with vendor ID. A code-app or e-mail second step still applies: the browser
 * keeps the flow cookie and resends the callback with the code.
 */
async function signInWith(
  ctx: PublicContext,
  flow: OidcFlow,
  identity: OidcIdentity,
  forgetFlow: () => void,
) {
  const userId = await userOf(ctx, identity);
  if (userId === undefined) {
    forgetFlow();
    throw notInvited(identity.email);
  }
  const user = await mfaRepository.userForMfa(ctx.db, userId);
  if (!user) throw notInvited(identity.email);
  if (user.mfaType === 'totp' || user.mfaType === 'email') {
    await secondStep.requireForLogin(ctx, user, {}, { purpose: 'oidc-login', oidcState: flow.state });
  }
  return user.id;
}

/** The code of that second step, resent: the identity was checked the first time. */
async function codeAfterVendor(ctx: PublicContext, flow: OidcFlow, second: SecondStepInput) {
  const id = second.session_id ?? second.session_uuid;
  const challenge = id ? await mfaRepository.challenge(ctx.db, id) : undefined;
  const user = challenge ? await mfaRepository.userForMfa(ctx.db, challenge.userId) : undefined;
  if (!user) throw expired();
  await secondStep.requireForLogin(ctx, user, second, { purpose: 'oidc-login', oidcState: flow.state });
  return user.id;
}

/** Vendor ID as the second step of a password sign-in: the identity must be the one linked. */
async function vendorAsSecondStep(ctx: PublicContext, flow: OidcFlow, identity: OidcIdentity) {
  const challenge = flow.challengeId ? await mfaRepository.challenge(ctx.db, flow.challengeId) : undefined;
  const now = new Date();
  if (
    !challenge ||
    challenge.userId !== flow.userId ||
    challenge.method !== 'vendor' ||
    challenge.oidcState !== flow.state ||
    challenge.usedAt !== null ||
    challenge.expiresAt <= now
  ) {
    throw expired();
  }
  const owner = await mfaRepository.identityUser(ctx.db, identity.issuer, identity.subject);
  if (owner !== challenge.userId) {
    await mfaRepository.takeAttempt(ctx.db, challenge.id, now, MFA_MAX_ATTEMPTS);
    throw forbidden('This vendor ID is not the one linked to your account');
  }
  if (!(await mfaRepository.useChallenge(ctx.db, challenge.id, now))) throw expired();
  return challenge.userId;
}

/** The vendor identity service's side of signing in and of linking vendor ID (product §1). */
export const oidcService = {
  /**
   * Finishes a flow the browser came back with (the console's /account/oidc/callback page
   * posts the query). Answers who signs in and how, or null once vendor ID is linked to
   * the signed-in caller who started linking it. `identify` redeems the code at the
   * identity service; `forgetFlow` drops the flow's cookie when nobody was invited.
   */
  async finish(
    ctx: PublicContext,
    input: {
      flow: OidcFlow;
      second: SecondStepInput;
      caller: AuthContext | null;
      identify: () => Promise<OidcIdentity>;
      forgetFlow: () => void;
    },
  ): Promise<{ userId: number; method: string } | null> {
    const { flow, second, caller } = input;
    if (flow.purpose === 'signin' && second.session_code !== undefined) {
      return { userId: await codeAfterVendor(ctx, flow, second), method: 'vendor' };
    }
    const identity = await input.identify();
    if (flow.purpose === 'link') {
      if (!caller || caller.actor || caller.principal.id !== flow.userId) {
        throw unauthorized('Sign in as the user who started linking the vendor ID');
      }
      await mfaService.linkVendor(withParts(ctx, { caller }), identity);
      return null;
    }
    if (flow.purpose === 'mfa') {
      return { userId: await vendorAsSecondStep(ctx, flow, identity), method: 'password+vendor' };
    }
    return { userId: await signInWith(ctx, flow, identity, input.forgetFlow), method: 'vendor' };
  },
};
