import { STORAGE_MAX_KEYS } from '@fleetgate/shared/schemas/storage';
import { AppError, notFound } from '#src/http/errors';
import type { ServiceContext } from '../service-context';
import { storageRepository } from './storage.repository';

/** Per-user storage of product §7 Storage: the signed-in user's own records only. */
export const storageService = {
  page(ctx: ServiceContext, limit: number, offset: number) {
    return storageRepository.page(ctx.db, ctx.caller.principal.id, limit, offset);
  },

  /** Stores a record; a new key past STORAGE_MAX_KEYS is refused. */
  async save(ctx: ServiceContext, key: string, value: unknown) {
    const userId = ctx.caller.principal.id;
    if (
      !(await storageRepository.exists(ctx.db, userId, key)) &&
      (await storageRepository.count(ctx.db, userId)) >= STORAGE_MAX_KEYS
    ) {
      throw AppError.of(409, 'CONFLICT', `At most ${STORAGE_MAX_KEYS} records may be stored`, 'key');
    }
    await storageRepository.upsert(ctx.db, userId, key, value);
  },

  async remove(ctx: ServiceContext, key: string) {
    if (!(await storageRepository.remove(ctx.db, ctx.caller.principal.id, key))) throw notFound('Record');
  },
};
