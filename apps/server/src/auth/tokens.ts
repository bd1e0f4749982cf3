import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh 256-bit token, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored as SHA-256 digests: high-entropy secrets need no slow hash. */
export function digest(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
