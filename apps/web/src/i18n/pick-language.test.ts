import { describe, expect, it } from 'vitest';
import { pickLanguage } from './pick-language';

describe('language choice (product §2 Header widgets)', () => {
  it('keeps a stored choice', () => expect(pickLanguage('ja', ['en-US'])).toBe('ja'));
  it('ignores a stored value we do not speak', () => expect(pickLanguage('xx', ['uk-UA'])).toBe('uk'));
  it('takes the first browser language we speak', () => {
    expect(pickLanguage(null, ['de-DE', 'nb-NO', 'en'])).toBe('nb');
    expect(pickLanguage(null, ['nn'])).toBe('nb');
  });
  it('falls back to the country of a browser locale', () => expect(pickLanguage(null, ['ru-UA'])).toBe('uk'));
  it('defaults to English', () => expect(pickLanguage(null, ['de-DE'])).toBe('en'));
});
