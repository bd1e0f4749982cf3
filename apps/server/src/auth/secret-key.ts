import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The key file written into DATA_DIR when SECRET_KEY is not set. */
export const SECRET_KEY_FILE = 'secret.key';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const VERSION = 'v1';

/**
 * Encrypts small secrets at rest (SMTP password, TOTP secrets): AES-256-GCM with a random
 * 96-bit IV per value. `context` is bound as additional authenticated data, so a value
 * sealed for one purpose (say `smtp.password`) cannot be swapped into another row.
 */
export type SecretBox = {
  encrypt(plain: string, context?: string): string;
  /** Throws when the value was not sealed by this key and context, or was altered. */
  decrypt(sealed: string, context?: string): string;
};

/** Turns the SECRET_KEY text into 32 key bytes (any string of at least 32 characters). */
function deriveKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'fleetgate', 'fleetgate secret box v1', KEY_BYTES));
}

/**
 * The key of this installation:
 * - SECRET_KEY when set (required when several servers share one database);
 * - else `DATA_DIR/secret.key`, generated once with mode 0600;
 * - with an in-memory database (tests) a key that lives as long as the process, like the data.
 */
export function loadSecretKey(options: {
  secretKey: string | undefined;
  dataDir: string;
  ephemeral?: boolean;
}): Buffer {
  if (options.secretKey) return deriveKey(options.secretKey);
  if (options.ephemeral) return randomBytes(KEY_BYTES);
  const file = path.join(options.dataDir, SECRET_KEY_FILE);
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    const key = Buffer.from(text, 'base64url');
    if (key.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte key`);
    return key;
  }
  mkdirSync(options.dataDir, { recursive: true });
  const key = randomBytes(KEY_BYTES);
  // `wx`: never overwrite a key another process wrote a moment ago.
  try {
    writeFileSync(file, `${key.toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadSecretKey(options);
    throw error;
  }
  chmodSync(file, 0o600);
  return key;
}

/** A SecretBox over a 32-byte key. Sealed values read `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== KEY_BYTES) throw new Error(`The secret key must be ${KEY_BYTES} bytes`);
  return {
    encrypt(plain, context = '') {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv, tag, data]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    decrypt(sealed, context = '') {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('Not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
