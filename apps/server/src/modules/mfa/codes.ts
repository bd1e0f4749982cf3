import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '@fleetgate/shared/schemas/mfa';
import { digest } from '#src/auth/tokens';

/** Unambiguous letters and digits: 32 symbols, so 16 of them carry 80 bits. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A 6-digit e-mail code. */
export function newEmailCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Recovery codes as the user sees them: XXXX-XXXX-XXXX-XXXX. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    let raw = '';
    for (let i = 0; i < 16; i++) raw += ALPHABET[randomInt(ALPHABET.length)];
    return raw.match(/.{4}/g)!.join('-');
  });
}

/** Recovery codes are typed in any case, with or without dashes and spaces. */
export function normaliseRecoveryCode(code: string): string | null {
  const raw = code.toUpperCase().replace(/[\s-]/g, '');
  return /^[A-Z2-9]{16}$/.test(raw) ? raw : null;
}

/** 80 random bits need no slow hash: SHA-256 of the normalised code. */
export function recoveryCodeHash(code: string): string | null {
  const raw = normaliseRecoveryCode(code);
  return raw === null ? null : digest(`recovery:${raw}`);
}
