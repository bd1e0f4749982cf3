import { describe, expect, it } from 'vitest';
import { generatePassword } from './password';
import { pasteWithin, trimValues } from './text';

describe('paste and trimming (product §5)', () => {
  it('cuts pasted text to the room left under maxlength', () => {
    expect(pasteWithin('abc', '123456', 3, 3, 5)).toEqual({ value: 'abc12', caret: 5 });
    expect(pasteWithin('abcdef', 'XY', 6, 6, 6)).toEqual({ value: 'abcdef', caret: 6 });
  });

  it('replaces the selection and counts the text after it', () => {
    expect(pasteWithin('abcdef', '12345', 1, 3, 6)).toEqual({ value: 'a12def', caret: 3 });
    expect(pasteWithin('abc', 'long paste', 0, 3, undefined)).toEqual({ value: 'long paste', caret: 10 });
  });

  it('trims text fields but never passwords or non-text values', () => {
    const fields = [
      { key: 'name', type: 'text' },
      { key: 'note', type: 'textarea' },
      { key: 'secret', type: 'password' },
      { key: 'flag', type: 'checkbox' },
    ];
    expect(trimValues({ name: '  Acme ', note: '\n hi \n', secret: ' p w ', flag: true }, fields)).toEqual({
      name: 'Acme',
      note: 'hi',
      secret: ' p w ',
      flag: true,
    });
  });
});

describe('generated passwords (product §9)', () => {
  it('are 16 characters with lower, upper, digit and symbol, and differ each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const password = generatePassword();
      expect(password).toHaveLength(16);
      expect(password).toMatch(/[a-z]/);
      expect(password).toMatch(/[A-Z]/);
      expect(password).toMatch(/[0-9]/);
      expect(password).toMatch(/[^a-zA-Z0-9]/);
      seen.add(password);
    }
    expect(seen.size).toBe(50);
  });
});
