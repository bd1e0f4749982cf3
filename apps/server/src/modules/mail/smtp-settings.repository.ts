import type { SmtpConfig, SmtpSecurity } from '@fleetgate/shared/schemas/mail';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { SecretBox } from '#src/auth/secret-key';
import type { Db } from '#src/db/database';
import { settings } from '#src/db/schema/settings';
import { settingsRepository } from '../settings/settings.repository';

/** The settings row holding the SMTP configuration. */
export const SMTP_SETTINGS_KEY = 'smtp';
/** AAD of the sealed password: the value cannot be moved into another secret's place. */
const PASSWORD_CONTEXT = 'smtp.password';

/** What is stored: the password only sealed (AES-256-GCM, auth/secret-key.ts). */
const storedSchema = z.object({
  host: z.string(),
  port: z.number().int(),
  security: z.enum(['starttls', 'tls', 'none']),
  allow_invalid_certificate: z.boolean().default(false),
  username: z.string(),
  password_sealed: z.string().nullable(),
  from_address: z.string(),
  from_name: z.string(),
  updated_at: z.string(),
});
type Stored = z.infer<typeof storedSchema>;

/** The configuration nodemailer needs, with the password opened. */
export type SmtpTransportConfig = {
  host: string;
  port: number;
  security: SmtpSecurity;
  allowInvalidCertificate: boolean;
  username: string;
  password: string | null;
  fromAddress: string;
  fromName: string;
};

export type SmtpInput = {
  host: string;
  port: number;
  security: SmtpSecurity;
  allow_invalid_certificate: boolean;
  username: string;
  password?: string | undefined;
  clear_password?: boolean | undefined;
  from_address: string;
  from_name: string;
};

async function readStored(db: Db): Promise<Stored | null> {
  const raw = await settingsRepository.get(db, SMTP_SETTINGS_KEY);
  if (raw === undefined || raw === null) return null;
  const parsed = storedSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** The SMTP configuration of product §2 email-smtp, stored in `settings` (this file is its repository). */
export const smtpSettings = {
  /** As the API shows it: `password_set` instead of the password. */
  async present(db: Db): Promise<SmtpConfig | null> {
    const stored = await readStored(db);
    if (!stored) return null;
    const { password_sealed, ...rest } = stored;
    return { ...rest, password_set: password_sealed !== null };
  },

  /** For sending. A password that no longer opens (key changed) counts as unset and is reported. */
  async forTransport(db: Db, box: SecretBox): Promise<SmtpTransportConfig | null> {
    const stored = await readStored(db);
    if (!stored) return null;
    let password: string | null = null;
    if (stored.password_sealed) {
      try {
        password = box.decrypt(stored.password_sealed, PASSWORD_CONTEXT);
      } catch {
        throw new Error(
          'The stored SMTP password cannot be decrypted (SECRET_KEY changed?). Enter it again.',
        );
      }
    }
    return {
      host: stored.host,
      port: stored.port,
      security: stored.security,
      allowInvalidCertificate: stored.allow_invalid_certificate,
      username: stored.username,
      password,
      fromAddress: stored.from_address,
      fromName: stored.from_name,
    };
  },

  /** Saves the configuration; an omitted password keeps the stored one, `clear_password` drops it. */
  async save(db: Db, box: SecretBox, input: SmtpInput): Promise<SmtpConfig> {
    const previous = await readStored(db);
    let sealed = previous?.password_sealed ?? null;
    if (input.clear_password) sealed = null;
    else if (input.password) sealed = box.encrypt(input.password, PASSWORD_CONTEXT);
    const stored: Stored = {
      host: input.host,
      port: input.port,
      security: input.security,
      allow_invalid_certificate: input.allow_invalid_certificate,
      username: input.username,
      password_sealed: sealed,
      from_address: input.from_address,
      from_name: input.from_name,
      updated_at: new Date().toISOString(),
    };
    await settingsRepository.put(db, SMTP_SETTINGS_KEY, stored);
    const { password_sealed, ...rest } = stored;
    return { ...rest, password_set: password_sealed !== null };
  },

  /** Back to no SMTP: messages are logged and marked unsent. */
  async remove(db: Db): Promise<void> {
    await db.delete(settings).where(eq(settings.key, SMTP_SETTINGS_KEY));
  },
};
