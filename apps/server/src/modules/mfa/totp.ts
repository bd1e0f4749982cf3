import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@fleetgate/shared/schemas/mfa';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30 s. */
function totpOf(secret: string, label = '', issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** A fresh 160-bit secret in base32 (RFC 4226 recommends 160 bits). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL an app scans, and the same as an SVG QR code data URL. */
export async function totpProvisioning(secret: string, account: string, issuer: string) {
  const otpauthUrl = totpOf(secret, account, issuer).toString();
  const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
  return { otpauthUrl, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * The time step a code belongs to (one step of clock drift either way), or null when the
 * code is wrong. Callers refuse a step at or before the last accepted one: single use.
 */
export function totpStep(secret: string, code: string, now = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now }) + delta;
}

/** The code for a time (tests, and nothing else). */
export function totpCodeAt(secret: string, timestamp: number): string {
  return totpOf(secret).generate({ timestamp });
}
