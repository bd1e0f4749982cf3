import { z } from 'zod';

/** Keys of per-user storage: short, printable, no path tricks. */
export const storageKeySchema = z
  .string()
  .min(1, 'Key is required')
  .max(200, 'Key must be at most 200 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'Key may contain letters, digits and . _ : - only');

/** A stored value: any JSON, bounded in size. */
export const storageValueSchema = z
  .unknown()
  .refine((v) => v !== undefined, 'Value is required')
  .refine((v) => JSON.stringify(v).length <= 64 * 1024, 'Value must be at most 64 KB of JSON');

export const storageRecordSchema = z.object({ key: z.string(), value: z.unknown() });
export type StorageRecord = z.infer<typeof storageRecordSchema>;

export const storageCreateBodySchema = z.strictObject({ key: storageKeySchema, value: storageValueSchema });
export const storageUpdateBodySchema = z.strictObject({ value: storageValueSchema });

/** Records a user may keep (spec §7 Storage). */
export const STORAGE_MAX_KEYS = 500;
