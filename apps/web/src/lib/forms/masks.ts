/**
 * Input masks of product §5: `#` digit or space, `*` letter or digit, `S` letter, `F` hex
 * digit (uppercased), `A` letter (uppercased), `a` letter (lowercased). Any other mask
 * character is a literal that is put in by itself.
 */
const TOKENS: Record<string, { test: (ch: string) => boolean; out: (ch: string) => string }> = {
  '#': { test: (ch) => /^[0-9 ]$/.test(ch), out: (ch) => ch },
  '*': { test: (ch) => /^[\p{L}\p{N}]$/u.test(ch), out: (ch) => ch },
  S: { test: (ch) => /^\p{L}$/u.test(ch), out: (ch) => ch },
  F: { test: (ch) => /^[0-9a-f]$/i.test(ch), out: (ch) => ch.toUpperCase() },
  A: { test: (ch) => /^\p{L}$/u.test(ch), out: (ch) => ch.toUpperCase() },
  a: { test: (ch) => /^\p{L}$/u.test(ch), out: (ch) => ch.toLowerCase() },
};

/**
 * Fits typed or pasted text to a mask: characters that do not fit their place are
 * skipped, literals are inserted, and the result stops where the input runs out.
 * `applyMask('aa-bb-cc', 'FF:FF:FF')` is `'AA:BB:CC'`.
 */
export function applyMask(value: string, mask: string): string {
  const input = [...value];
  let out = '';
  let i = 0;
  for (const place of mask) {
    if (i >= input.length) break;
    const token = TOKENS[place];
    if (!token) {
      out += place;
      if (input[i] === place) i += 1;
      continue;
    }
    while (i < input.length && !token.test(input[i]!)) i += 1;
    if (i >= input.length) break;
    out += token.out(input[i]!);
    i += 1;
  }
  return out;
}
