import { createHash } from 'node:crypto';
import {
  type Brand,
  type BrandImageKey,
  type BrandImageKind,
  type BrandInput,
  type BrandRecord,
  DEFAULT_BRAND,
  sameModel,
} from '@fleetgate/shared/schemas/brand';
import type { Db } from '#src/db/database';
import { isUniqueViolation } from '#src/db/errors';
import { notFound, unprocessable } from '#src/http/errors';
import { audited } from '../audit/audit.service';
import { callerAudit, type PublicContext, type ServiceContext } from '../service-context';
import { brandOf, presentBrandRecord, settingsOf, storedSettings } from './brand.presenter';
import { type BrandRow, brandRepository } from './brand.repository';
import { acceptBrandImage } from './brand-image';

const HOST_TAKEN = 'This host name already has a brand';
const DEFAULT_KEPT = 'The default brand cannot be deleted';
const DEFAULT_NEEDED = 'Make another brand the default first';

const MODEL_NEEDED = 'Name the model the picture is for';
const MODEL_UNKNOWN = 'Add the model to the branded devices first';

/** How an image is stored: its kind, a model picture with its vendor model in capitals; none without it. */
function imageKey(kind: BrandImageKind, model: string | undefined): BrandImageKey | undefined {
  if (kind !== 'model') return kind;
  const name = model?.trim().toUpperCase();
  return name ? `model:${name}` : undefined;
}

/** The address of a stored image; `v` names its version, so browsers may keep it for good. */
function imageAddress(id: number, key: BrandImageKey, digest: string): string {
  const version = `v=${digest.slice(0, 12)}`;
  if (!key.startsWith('model:')) return `/api/brands/${id}/images/${key}?${version}`;
  return `/api/brands/${id}/images/model?model=${encodeURIComponent(key.slice('model:'.length))}&${version}`;
}

/** The branded devices with the picture of one vendor model set; refused when none names it. */
function withPicture(devices: Brand['branded_devices'], key: BrandImageKey, address: string) {
  const model = key.slice('model:'.length);
  if (!devices.some((d) => sameModel(d.original_model, model))) throw unprocessable(MODEL_UNKNOWN, 'model');
  return devices.map((d) =>
    sameModel(d.original_model, model) ? { ...d, branded_model_image: address } : d,
  );
}

/** What reading the brands needs: the database and the brands kept in memory. */
export type BrandReader = Pick<PublicContext, 'db' | 'brands'>;

/** A request's host name as brands name it: lower case, without the port or a final dot. */
const hostName = (host: string) => host.trim().toLowerCase().replace(/\.$/, '');

/** Every brand, from memory when nothing changed since they were read. */
const records = (ctx: BrandReader) =>
  ctx.brands.all(async () => (await brandRepository.all(ctx.db)).map(presentBrandRecord));

const auditEntry = (ctx: ServiceContext, action: string, row: BrandRow, details?: Record<string, unknown>) =>
  callerAudit(ctx, {
    action,
    targetType: 'brand',
    targetId: row.id,
    details: { host: row.host, ...details },
  });

/**
 * The host name rule: checked under the lock, and the unique index answers the same should
 * a writer outside the service race past it.
 */
async function guardHost<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // The default's index cannot be met: every write of a default holds the lock first.
    if (isUniqueViolation(error)) throw unprocessable(HOST_TAKEN, 'host');
    throw error;
  }
}

async function refuseTakenHost(tx: Db, host: string | null, except?: number) {
  if (host !== null && (await brandRepository.hostOwner(tx, host, except)) !== undefined)
    throw unprocessable(HOST_TAKEN, 'host');
}

/**
 * Saves a brand over the one `pick` finds, under the brands lock: the host and default
 * rules, and a new default makes every other brand non-default in the same transaction.
 */
async function save(
  ctx: ServiceContext,
  pick: (tx: Db) => Promise<BrandRow | undefined>,
  inputOf: (current: BrandRow) => BrandInput,
) {
  const row = await guardHost(() =>
    audited(
      ctx.db,
      async (tx) => {
        await brandRepository.lock(tx);
        const current = await pick(tx);
        if (!current) throw notFound('Brand');
        const input = inputOf(current);
        await refuseTakenHost(tx, input.host, current.id);
        if (current.isDefault && !input.default) throw unprocessable(DEFAULT_NEEDED, 'default');
        if (input.default) await brandRepository.clearDefault(tx, current.id);
        return brandRepository.update(tx, current.id, {
          host: input.host,
          isDefault: input.default,
          settings: settingsOf(input),
        });
      },
      (saved) => auditEntry(ctx, 'brand.update', saved),
    ),
  );
  // This server's next answer shows the change at once; the others hear the database.
  ctx.brands.drop();
  return row;
}

/**
 * Brands of product §1, one per host name the console is reached at, and a default one for
 * every other: read by everyone (the sign-in page is branded too), changed by the super admin.
 */
export const brandService = {
  /**
   * The brand of a request's host name (`request.hostname`): the brand naming that host,
   * else the default brand, else the product's own look. `default` is true only for the
   * default brand.
   */
  async forHost(ctx: BrandReader, host: string): Promise<Brand> {
    const all = await records(ctx);
    const name = hostName(host);
    const record = all.find((b) => b.host === name) ?? all.find((b) => b.default);
    return record ? brandOf(record) : DEFAULT_BRAND;
  },

  /** The default brand, for what is not seen at a host name (e-mail). */
  async defaultBrand(ctx: BrandReader): Promise<Brand> {
    const record = (await records(ctx)).find((b) => b.default);
    return record ? brandOf(record) : DEFAULT_BRAND;
  },

  /** Every brand, the default first, then by host name. */
  list(ctx: ServiceContext): Promise<BrandRecord[]> {
    return records(ctx);
  },

  async create(ctx: ServiceContext, input: BrandInput): Promise<BrandRecord> {
    const row = await guardHost(() =>
      audited(
        ctx.db,
        async (tx) => {
          await brandRepository.lock(tx);
          await refuseTakenHost(tx, input.host);
          if (input.default) await brandRepository.clearDefault(tx);
          return brandRepository.insert(tx, {
            host: input.host,
            isDefault: input.default,
            settings: settingsOf(input),
          });
        },
        (created) => auditEntry(ctx, 'brand.create', created),
      ),
    );
    ctx.brands.drop();
    return presentBrandRecord(row);
  },

  async update(ctx: ServiceContext, id: number, input: BrandInput): Promise<BrandRecord> {
    return presentBrandRecord(
      await save(
        ctx,
        (tx) => brandRepository.find(tx, id),
        () => input,
      ),
    );
  },

  /**
   * PUT /api/brand of the clients made before brands had host names: changes the brand
   * serving the request's host name (the default one when no brand names it), which keeps
   * its host name.
   */
  async updateForHost(ctx: ServiceContext, host: string, brand: Brand): Promise<Brand> {
    const name = hostName(host);
    const row = await save(
      ctx,
      async (tx) => {
        const all = await brandRepository.all(tx);
        return all.find((b) => b.host === name) ?? all.find((b) => b.isDefault);
      },
      // This host's brand, changed where it stands: its host name and its default role stay.
      (current) => ({ ...brand, host: current.host, default: current.isDefault }),
    );
    return brandOf(presentBrandRecord(row));
  },

  async remove(ctx: ServiceContext, id: number): Promise<void> {
    await audited(
      ctx.db,
      async (tx) => {
        await brandRepository.lock(tx);
        const row = await brandRepository.find(tx, id);
        if (!row) throw notFound('Brand');
        if (row.isDefault) throw unprocessable(DEFAULT_KEPT);
        await brandRepository.remove(tx, id);
        return row;
      },
      (removed) => auditEntry(ctx, 'brand.delete', removed),
    );
    ctx.brands.drop();
  },

  /**
   * Stores a brand's favicon or logo and points the brand at it: `favicon` or `logo_vector`
   * becomes the image's address, versioned by its digest so browsers may keep it for good.
   */
  /**
   * Stores a brand's favicon, logo or model picture and points the brand's setting at it (a
   * model picture: the branded_devices entry of that vendor model, which must exist).
   */
  async putImage(
    ctx: ServiceContext,
    id: number,
    kind: BrandImageKind,
    bytes: Buffer,
    model?: string,
  ): Promise<BrandRecord> {
    if (!(await records(ctx)).some((b) => b.id === id)) throw notFound('Brand');
    const key = imageKey(kind, model);
    if (!key) throw unprocessable(MODEL_NEEDED, 'model');
    const image = await acceptBrandImage(kind, bytes);
    const digest = createHash('sha256').update(image.bytes).digest('hex');
    const address = imageAddress(id, key, digest);
    const row = await audited(
      ctx.db,
      async (tx) => {
        await brandRepository.lock(tx);
        const current = await brandRepository.find(tx, id);
        if (!current) throw notFound('Brand');
        const settings = storedSettings(current.settings);
        const next =
          kind === 'model'
            ? { ...settings, branded_devices: withPicture(settings.branded_devices, key, address) }
            : { ...settings, [kind === 'favicon' ? 'favicon' : 'logo_vector']: address };
        await brandRepository.putImage(tx, id, key, { ...image, digest });
        return brandRepository.update(tx, id, { settings: next });
      },
      (saved) => auditEntry(ctx, 'brand.image', saved, { kind: key, digest }),
    );
    ctx.brands.drop();
    return presentBrandRecord(row);
  },

  /** A brand's stored image; 404 when it has none. */
  async image(ctx: PublicContext, id: number, kind: BrandImageKind, model?: string) {
    const key = imageKey(kind, model);
    const image = key && (await brandRepository.image(ctx.db, id, key));
    if (!image) throw notFound('Brand image');
    return image;
  },
};
