import { describe, expect, it } from 'vitest';
import { ResponseCache } from './cache';

describe('response cache (product §9: 5 minutes, 100 entries)', () => {
  it('forgets entries after the time to live', () => {
    let now = 0;
    const cache = new ResponseCache(300_000, 100, () => now);
    cache.set('a', 1);
    now = 299_999;
    expect(cache.get('a')).toBe(1);
    now = 300_001;
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps at most the newest 100 entries', () => {
    const cache = new ResponseCache();
    for (let i = 0; i < 105; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(100);
    expect(cache.get('k0')).toBeUndefined();
    expect(cache.get('k104')).toBe(104);
  });
});
