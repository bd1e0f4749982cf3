import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSecretBox, loadSecretKey, SECRET_KEY_FILE } from './secret-key';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'fg-secret-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('secret box (AES-256-GCM at rest)', () => {
  const box = createSecretBox(loadSecretKey({ secretKey: 'x'.repeat(40), dataDir: '/nonexistent' }));

  it('seals and opens a value; the sealed text does not contain it', () => {
    const sealed = box.encrypt('smtp-password-123', 'smtp.password');
    expect(sealed).not.toContain('smtp-password-123');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(box.decrypt(sealed, 'smtp.password')).toBe('smtp-password-123');
  });

  it('uses a fresh IV each time', () => {
    expect(box.encrypt('same')).not.toBe(box.encrypt('same'));
  });

  it('refuses a value sealed for another context', () => {
    const sealed = box.encrypt('secret', 'smtp.password');
    expect(() => box.decrypt(sealed, 'totp:1')).toThrow();
  });

  it('refuses a value that was altered', () => {
    const sealed = box.encrypt('secret');
    const [v, iv, tag, data] = sealed.split('.');
    const flipped = Buffer.from(data!, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    expect(() => box.decrypt([v, iv, tag, flipped.toString('base64url')].join('.'))).toThrow();
    expect(() => box.decrypt('not sealed')).toThrow();
  });

  it('refuses a value sealed with another key', () => {
    const other = createSecretBox(loadSecretKey({ secretKey: 'y'.repeat(40), dataDir: '/nonexistent' }));
    expect(() => other.decrypt(box.encrypt('secret'))).toThrow();
  });

  it('derives the same key from the same SECRET_KEY', () => {
    const again = createSecretBox(loadSecretKey({ secretKey: 'x'.repeat(40), dataDir: '/nonexistent' }));
    expect(again.decrypt(box.encrypt('secret'))).toBe('secret');
  });
});

describe('key file in DATA_DIR', () => {
  it('is generated once with mode 0600 and reused at the next start', () => {
    const dataDir = path.join(freshDir(), 'data');
    const first = loadSecretKey({ secretKey: undefined, dataDir });
    const file = path.join(dataDir, SECRET_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('base64url'));
    const second = loadSecretKey({ secretKey: undefined, dataDir });
    expect(second.equals(first)).toBe(true);
  });

  it('SECRET_KEY wins over the file; an in-memory database gets a key that is not written', () => {
    const dataDir = freshDir();
    loadSecretKey({ secretKey: 'z'.repeat(32), dataDir });
    loadSecretKey({ secretKey: undefined, dataDir, ephemeral: true });
    expect(() => statSync(path.join(dataDir, SECRET_KEY_FILE))).toThrow();
  });
});
