import { describe, expect, it } from 'vitest';
import { parseJson, stateSchema } from './messages';

describe('device message payloads (docs/device-protocol.md §4)', () => {
  it('successful-parse: UTF-8 JSON from bytes or text, one decoder for every message', () => {
    const bytes = new TextEncoder().encode('{"operator":"Telia Lietuva ą","signal":-71}');
    expect(parseJson(bytes)).toEqual({ operator: 'Telia Lietuva ą', signal: -71 });
    expect(parseJson('{"signal":-60}')).toEqual({ signal: -60 });
  });

  it('failing-parse: bytes that are not UTF-8, or not JSON, give null and leave the decoder usable', () => {
    expect(parseJson(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).toBeNull();
    expect(parseJson('{"signal": -60')).toBeNull();
    expect(parseJson(new TextEncoder().encode('{"signal":-61}'))).toEqual({ signal: -61 });
  });

  it('failing-state: values outside the units of product §9 are refused', () => {
    expect(stateSchema.safeParse({ signal: -60, temperature: 41 }).success).toBe(true);
    expect(stateSchema.safeParse({ signal: 5 }).success).toBe(false);
    expect(stateSchema.safeParse({ temperature: 500 }).success).toBe(false);
  });
});
