import { z } from 'zod';
import { body, fields, text } from './messages';

/** Keys of per-user storage: short, printable, no path tricks. */
export const storageKeySchema = text('Key')
  .min(1, 'Key is required')
  .max(200, 'Key must be at most 200 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Key may contain letters, digits and . _ : - only');

/** A stored value: any JSON, bounded in size. */
export const storageValueSchema = z
  .unknown()
  .refine((v) => v !== undefined, 'Value is required')
  // JSON has no undefined: that value is refused above, not measured here.
  .refine((v) => (JSON.stringify(v) ?? '').length <= 64 * 1024, 'Value must be at most 64 KB of JSON');

export const storageRecordSchema = fields('Record', {
  key: text('Key'),
  value: z.custom<unknown>((v) => v !== undefined, { error: 'Value is required' }),
});
export type StorageRecord = z.infer<typeof storageRecordSchema>;

export const storageCreateBodySchema = body({ key: storageKeySchema, value: storageValueSchema });
export const storageUpdateBodySchema = body({ value: storageValueSchema });

/** Records a user may keep (product §7 Storage). */
export const STORAGE_MAX_KEYS = 500;

/** What storing or removing a record answers: its key. */
export const storageSavedSchema = fields('Result', { key: text('Key') });
