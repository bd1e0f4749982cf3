import type { EmailEnrolment, MfaMethod, MfaStatus } from '@fleetgate/shared/schemas/mfa';
import type { ChallengeRow } from './mfa.repository';

/** The second step as account settings and the MFA_MANDATORY notice show it. */
export function presentMfaStatus(status: {
  method: MfaMethod | null;
  mandatory: boolean;
  recoveryCodesLeft: number;
  vendor: { enabled: boolean; name: string; linked: boolean };
}): MfaStatus {
  return {
    method: status.method,
    mandatory: status.mandatory,
    recovery_codes_left: status.recoveryCodesLeft,
    vendor: status.vendor,
  };
}

/** The challenge whose e-mailed code confirms e-mail codes as the second step. */
export function presentEmailEnrolment(challenge: ChallengeRow): EmailEnrolment {
  return { session_id: challenge.id, expires_at: challenge.expiresAt.toISOString() };
}
