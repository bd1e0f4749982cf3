import { describe, expect, it } from 'vitest';
import { hasNoInvisibleChars, hasNoInvisibleCharsInText, neutralizeText, neutralizeTexts } from './limits';

/** Every character the rule of names refuses, one code point range at a time. */
const BIDI = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
const INVISIBLE = [0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xfeff, 0x180e, 0x00ad];
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const CONTROLS = [...range(0x00, 0x1f), ...range(0x7f, 0x9f)];
const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/** Names that must stay acceptable: other scripts, right-to-left letters themselves, emoji. */
const GOOD_NAMES = [
  'RUTX11 Vilnius-01',
  'Telia Lietuva ą',
  'Пристрій №5',
  '東京オフィス',
  'שלום',
  'مرحبا',
  'Router 😀',
];

describe('the rule of names: no invisible or text-direction characters', () => {
  it('failing-name: each bidirectional control, invisible format character and control character is refused', () => {
    for (const code of [...BIDI, ...INVISIBLE, ...CONTROLS]) {
      expect(hasNoInvisibleChars(`Attk${String.fromCharCode(code)}elif.exe`), hex(code)).toBe(false);
    }
  });

  it('failing-name: the spoof of the finding and lone surrogates are refused', () => {
    expect(hasNoInvisibleChars('Attk\u202eelif.exe')).toBe(false);
    expect(hasNoInvisibleChars('Ro\u200buter')).toBe(false);
    expect(hasNoInvisibleChars('x\uD800')).toBe(false);
    expect(hasNoInvisibleChars('\uDC00x')).toBe(false);
  });

  it('successful-name: names in any script, right-to-left letters and emoji pass', () => {
    for (const name of GOOD_NAMES) expect(hasNoInvisibleChars(name), name).toBe(true);
  });

  it('multi-line text keeps tab and line breaks but refuses the rest', () => {
    expect(hasNoInvisibleCharsInText('Rack 3\r\nShelf\t2\nleft')).toBe(true);
    for (const name of GOOD_NAMES) expect(hasNoInvisibleCharsInText(name), name).toBe(true);
    for (const code of [...BIDI, ...INVISIBLE]) {
      expect(hasNoInvisibleCharsInText(`line\n${String.fromCharCode(code)}`), hex(code)).toBe(false);
    }
    for (const code of CONTROLS.filter((c) => c !== 0x09 && c !== 0x0a && c !== 0x0d)) {
      expect(hasNoInvisibleCharsInText(`a${String.fromCharCode(code)}b`), hex(code)).toBe(false);
    }
    expect(hasNoInvisibleCharsInText('x\uD800')).toBe(false);
  });
});

describe('neutralizeText: device-reported text made safe to show', () => {
  it('removes text-direction and invisible characters, so the spoof reads as what it is', () => {
    expect(neutralizeText('RUT2\u202eelif.exe')).toBe('RUT2elif.exe');
    expect(neutralizeText('RUTX11\u200b-0001')).toBe('RUTX11-0001');
    for (const code of [...BIDI, ...INVISIBLE]) {
      expect(neutralizeText(`a${String.fromCharCode(code)}b`), hex(code)).toBe('ab');
    }
  });

  it('replaces control characters and lone surrogates: line breaks and tabs by a space, the rest by U+FFFD', () => {
    expect(neutralizeText('Telia\tLT\r\n')).toBe('Telia LT  ');
    expect(neutralizeText('a\u0000b\u001bc\u007fd\u0085e')).toBe('a\uFFFDb\uFFFDc\uFFFDd\uFFFDe');
    expect(neutralizeText('x\uD800y\uDC00')).toBe('x\uFFFDy\uFFFD');
    for (const code of CONTROLS)
      expect(hasNoInvisibleChars(neutralizeText(String.fromCharCode(code)))).toBe(true);
  });

  it('keeps line breaks and tabs of multi-line text', () => {
    expect(neutralizeText('one\n\u202etwo\tthree\r\n\u0007', { multiline: true })).toBe(
      'one\ntwo\tthree\r\n\uFFFD',
    );
  });

  it('leaves clean text, other scripts and emoji untouched (the same string)', () => {
    for (const name of GOOD_NAMES) expect(neutralizeText(name)).toBe(name);
  });

  it('neutralizeTexts cleans every string of a nested message and keeps the rest', () => {
    const message = {
      model: 'RUTX11',
      firmware: 'RUT2\u202eelif.exe',
      hostname: 'gw\u200b-1',
      monitoring_period: 300,
      sims: [{ slot: 1, operator: 'Te\u2066lia' }, { slot: 2 }],
      agent: { name: 'sim', version: '1.0' },
      esim: false,
      note: null,
    };
    expect(neutralizeTexts(message)).toEqual({
      ...message,
      firmware: 'RUT2elif.exe',
      hostname: 'gw-1',
      sims: [{ slot: 1, operator: 'Telia' }, { slot: 2 }],
    });
    // Untouched parts are the same objects; a clean message is returned as it is.
    expect(neutralizeTexts(message).agent).toBe(message.agent);
    expect(neutralizeTexts(message).sims[1]).toBe(message.sims[1]);
    const clean = { operator: 'Telia', ports: [{ name: 'LAN1' }] };
    expect(neutralizeTexts(clean)).toBe(clean);
  });
});
