import { timingSafeEqual } from 'node:crypto';

/** Compares a user name or password in constant time, so its length is all a guess learns. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
