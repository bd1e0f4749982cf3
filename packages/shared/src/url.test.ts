import { describe, expect, it } from 'vitest';
import { safeContinueUrl } from './url';

describe('continue_url (product §5)', () => {
  const origin = 'https://console.example.com';
  it('keeps a same-host URL as a path', () => {
    expect(safeContinueUrl('https://console.example.com/devices/4?tab=1#x', origin)).toBe(
      '/devices/4?tab=1#x',
    );
    expect(safeContinueUrl('/companies', origin)).toBe('/companies');
  });
  it('refuses another host, protocol-relative tricks and scripts', () => {
    expect(safeContinueUrl('https://evil.example/devices', origin)).toBeNull();
    expect(safeContinueUrl('//evil.example/x', origin)).toBeNull();
    expect(safeContinueUrl('javascript:alert(1)', origin)).toBeNull();
    expect(safeContinueUrl('https://console.example.com.evil.example/', origin)).toBeNull();
  });
  it('ignores empty values', () => expect(safeContinueUrl('', origin)).toBeNull());
});
