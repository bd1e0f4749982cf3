import { GENERATED_PASSWORD_LENGTH } from '@fleetgate/shared/constants';

const SETS = ['abcdefghijkmnopqrstuvwxyz', 'ABCDEFGHJKLMNPQRSTUVWXYZ', '23456789', '!@%^*-_=+.?'] as const;
const ALL = SETS.join('');

/** A uniform random index below n (rejection sampling, no modulo bias). */
function randomBelow(n: number): number {
  const limit = Math.floor(0x1_0000_0000 / n) * n;
  const buffer = new Uint32Array(1);
  for (;;) {
    crypto.getRandomValues(buffer);
    if (buffer[0]! < limit) return buffer[0]! % n;
  }
}

/**
 * A generated password (product §5, §9: 16 characters) with a lower-case letter, an
 * upper-case letter, a digit and a symbol, from the browser's cryptographic random source.
 */
export function generatePassword(length = GENERATED_PASSWORD_LENGTH): string {
  const chars = SETS.map((set) => set[randomBelow(set.length)]!);
  while (chars.length < length) chars.push(ALL[randomBelow(ALL.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomBelow(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
