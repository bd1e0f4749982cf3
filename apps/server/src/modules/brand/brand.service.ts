import { type Brand, brandSchema, DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { audited } from '../audit/audit.service';
import { callerAudit, type PublicContext, type ServiceContext } from '../service-context';
import { settingsRepository } from '../settings/settings.repository';

const KEY = 'brand';

/** Brand settings of product §1: read by everyone (the sign-in page is branded too), changed by the super admin. */
export const brandService = {
  /** The saved brand over the defaults; a stored value that no longer parses falls back to them. */
  async get(ctx: PublicContext): Promise<Brand> {
    const parsed = brandSchema.safeParse((await settingsRepository.get(ctx.db, KEY)) ?? {});
    return parsed.success ? parsed.data : DEFAULT_BRAND;
  },

  async update(ctx: ServiceContext, brand: Brand): Promise<Brand> {
    await audited(
      ctx.db,
      (tx) => settingsRepository.put(tx, KEY, brand),
      () => callerAudit(ctx, { action: 'brand.update' }),
    );
    return brand;
  },
};
