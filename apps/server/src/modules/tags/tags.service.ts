import {
  type DeviceTagsBody,
  type EditTagBody,
  type NewTagBody,
  TAG_STATUS_BUCKETS,
  type TagStatusBucket,
} from '@fleetgate/shared/schemas/tags';
import { isUniqueViolation } from '#src/db/errors';
import { badRequest, conflict, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import { audited } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { type TagFilters, tagsRepository } from './tags.repository';

const NAME_TAKEN = 'A tag with this name already exists in this company';

const auditEntry = (
  ctx: ServiceContext,
  action: string,
  tagId: number,
  companyId: number,
  details?: Record<string, unknown>,
) => callerAudit(ctx, { action, companyId, targetType: 'tag', targetId: tagId, details });

/**
 * Two requests racing past the name check meet the unique index: answer as the check would.
 * Around the whole transaction, so the one that failed has rolled back first.
 */
async function guardName<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(NAME_TAKEN, 'name');
    throw error;
  }
}

/** product §4: 0 Offline, 1 Online, 2 Pending, otherwise Not Activated. */
function bucketOf(status: number): TagStatusBucket {
  if (status === 0) return 'offline';
  if (status === 1) return 'online';
  if (status === 2) return 'pending';
  return 'not_activated';
}

/**
 * Tags of companies (product §2 tags.main, management.tag_chart, company.tags; §3 Tag and
 * newTag). Every read and change is scoped to the caller's companies; another company's
 * tag or device answers 404 and changes nothing.
 */
export const tagsService = {
  list(ctx: ServiceContext, query: ListQuery, filters: TagFilters) {
    return tagsRepository.list(ctx.db, scopeOf(ctx.caller), query, filters);
  },

  async get(ctx: ServiceContext, id: number) {
    const tag = await tagsRepository.find(ctx.db, scopeOf(ctx.caller), id);
    if (!tag) throw notFound('Tag');
    return tag;
  },

  async create(ctx: ServiceContext, input: NewTagBody) {
    const scope = scopeOf(ctx.caller);
    const company = await companyInScope(ctx.db, scope, input.company_id ?? ctx.caller.principal.company.id);
    if (!company) throw notFound('Company');
    if (await tagsRepository.nameTaken(ctx.db, company.id, input.name)) throw conflict(NAME_TAKEN, 'name');
    const id = await guardName(() =>
      audited(
        ctx.db,
        (tx) =>
          tagsRepository.insert(tx, {
            companyId: company.id,
            name: input.name,
            description: input.description,
            color: input.color,
          }),
        (created) => auditEntry(ctx, 'tag.create', created, company.id, { name: input.name }),
      ),
    );
    return this.get(ctx, id);
  },

  async update(ctx: ServiceContext, id: number, input: EditTagBody) {
    const tag = await this.get(ctx, id);
    if (input.name === undefined && input.description === undefined && input.color === undefined)
      throw badRequest('Nothing to change');
    if (input.name !== undefined && (await tagsRepository.nameTaken(ctx.db, tag.company_id, input.name, id)))
      throw conflict(NAME_TAKEN, 'name');
    await guardName(() =>
      audited(
        ctx.db,
        (tx) => tagsRepository.update(tx, id, input),
        () => auditEntry(ctx, 'tag.update', id, tag.company_id, { ...input }),
      ),
    );
    return this.get(ctx, id);
  },

  async remove(ctx: ServiceContext, id: number) {
    const tag = await this.get(ctx, id);
    await audited(
      ctx.db,
      (tx) => tagsRepository.remove(tx, id),
      () => auditEntry(ctx, 'tag.delete', id, tag.company_id, { name: tag.name }),
    );
  },

  /**
   * Adds a tag to devices or removes it (product §2 'manage tags', §7 bulk body). All or
   * nothing: a device the caller does not reach answers 404; a device outside the tag's
   * company subtree is refused, so a parent's tag never lands on a sibling's device.
   */
  async setOnDevices(ctx: ServiceContext, body: DeviceTagsBody) {
    const scope = scopeOf(ctx.caller);
    const tag = await this.get(ctx, body.tag_id);
    const ids = [...new Set(body.device_id)];
    const found = await tagsRepository.devicesInScope(ctx.db, scope, ids);
    if (found.length !== ids.length) throw notFound('Device');
    if (body.action === 'add') {
      const company = await companyInScope(ctx.db, scope, tag.company_id);
      const outside = found.filter((d) => !company || !d.path.startsWith(company.path));
      if (outside.length)
        throw badRequest(
          `Devices ${outside.map((d) => d.id).join(', ')} are not in the tag’s company or its subsidiaries`,
          'device_id',
        );
    }
    const changed = await audited(
      ctx.db,
      (tx) => tagsRepository.setOnDevices(tx, tag.id, ids, body.action),
      (count) =>
        auditEntry(ctx, body.action === 'add' ? 'tag.assign' : 'tag.unassign', tag.id, tag.company_id, {
          device_id: ids,
          changed: count,
        }),
    );
    return { tag_id: tag.id, action: body.action, changed };
  },

  async chart(ctx: ServiceContext, id: number) {
    const tag = await this.get(ctx, id);
    const { statuses, models } = await tagsRepository.chart(ctx.db, scopeOf(ctx.caller), id);
    const counts = new Map<TagStatusBucket, number>(TAG_STATUS_BUCKETS.map((b) => [b, 0]));
    for (const row of statuses)
      counts.set(bucketOf(row.status), (counts.get(bucketOf(row.status)) ?? 0) + row.count);
    return {
      tag,
      total: statuses.reduce((sum, row) => sum + row.count, 0),
      by_status: TAG_STATUS_BUCKETS.map((status) => ({ status, count: counts.get(status) ?? 0 })),
      by_model: models,
    };
  },
};
