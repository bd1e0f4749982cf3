import { describe, expect, it } from 'vitest';
import { applyMask } from './masks';

describe('input masks (product §5)', () => {
  it('# takes digits and spaces only', () => {
    expect(applyMask('12a 3', '####')).toBe('12 3');
    expect(applyMask('abc', '###')).toBe('');
  });

  it('* takes letters and digits, S letters only', () => {
    expect(applyMask('a-1_b', '***')).toBe('a1b');
    expect(applyMask('a1b2', 'SS')).toBe('ab');
  });

  it('F takes hex digits uppercased and inserts literals (a MAC address)', () => {
    expect(applyMask('aabbccddeeff', 'FF:FF:FF:FF:FF:FF')).toBe('AA:BB:CC:DD:EE:FF');
    expect(applyMask('aa-bb-cc-dd-ee-ff', 'FF:FF:FF:FF:FF:FF')).toBe('AA:BB:CC:DD:EE:FF');
    expect(applyMask('0g1h', 'FF')).toBe('01');
  });

  it('A uppercases letters and a lowercases them', () => {
    expect(applyMask('no', 'AA')).toBe('NO');
    expect(applyMask('NO', 'aa')).toBe('no');
    expect(applyMask('n1o', 'AA')).toBe('NO');
  });

  it('stops where the input runs out and keeps a typed literal', () => {
    expect(applyMask('12', '##:##')).toBe('12');
    expect(applyMask('12:', '##:##')).toBe('12:');
    expect(applyMask('123', '##:##')).toBe('12:3');
    expect(applyMask('123456', '##:##')).toBe('12:34');
  });
});
