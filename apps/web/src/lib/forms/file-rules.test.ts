import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';
import { describe, expect, it } from 'vitest';
import { checkFile, filterDropped, formatBytes } from './file-rules';

describe('file input rules (product §5)', () => {
  it('allows up to 80 MB by default and names the limit otherwise', () => {
    expect(checkFile({ name: 'a.json', size: MAX_FILE_SIZE_BYTES })).toBeNull();
    expect(checkFile({ name: 'a.json', size: MAX_FILE_SIZE_BYTES + 1 })).toEqual({
      code: 'size',
      size: '80 MB',
    });
    expect(checkFile({ name: 'a.json', size: 2048 }, { maxSize: 1024 })).toEqual({
      code: 'size',
      size: '1 KB',
    });
  });

  it('refuses forbidden symbols in the name', () => {
    for (const name of ['a:b.json', 'a<b>.json', "it's.json", 'a|b', 'x\\y.json', 'q?.csv'])
      expect(checkFile({ name, size: 1 })).toEqual({ code: 'forbidden' });
  });

  it('refuses spaces unless allowed', () => {
    expect(checkFile({ name: 'my file.json', size: 1 })).toEqual({ code: 'spaces' });
    expect(checkFile({ name: 'my file.json', size: 1 }, { allowSpaces: true })).toBeNull();
  });

  it('filters drops by the accept types that contain a slash', () => {
    const files = [
      { name: 'a.json', type: 'application/json' },
      { name: 'b.png', type: 'image/png' },
      { name: 'c.txt', type: 'text/plain' },
    ];
    expect(filterDropped(files, '.json,application/json').map((f) => f.name)).toEqual(['a.json']);
    expect(filterDropped(files, 'image/*').map((f) => f.name)).toEqual(['b.png']);
    // Extensions alone do not filter drops.
    expect(filterDropped(files, '.json')).toHaveLength(3);
    expect(filterDropped(files, undefined)).toHaveLength(3);
  });

  it('formats sizes in base-1024 units (product §9)', () => {
    expect(formatBytes(83_886_080)).toBe('80 MB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(12)).toBe('12 B');
  });
});
