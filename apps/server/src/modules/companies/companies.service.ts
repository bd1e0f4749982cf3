import { COMPANY_MAX_LEVEL } from '@fleetgate/shared/limits';
import {
  type CompanyFlagsBody,
  type CompanyPaymentType,
  UNCHANGED_VALUE_MESSAGE,
} from '@fleetgate/shared/schemas/companies';
import { AppError, badRequest, conflict, forbidden, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import { audited } from '../audit/audit.service';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { balancesOf } from '../resources/resources.service';
import { callerAudit, type ServiceContext } from '../service-context';
import { type CompanyFilters, companiesRepository } from './companies.repository';

const PARENT_LEVEL_MESSAGE = `The parent company must be of level 1 or 2, so no company sits below level ${COMPANY_MAX_LEVEL}`;
const MOVE_LEVEL_MESSAGE = `Moved there, the company or one of its subsidiaries would sit below level ${COMPANY_MAX_LEVEL}`;

async function reachable(ctx: ServiceContext, id: number, what = 'Company') {
  const company = await companyInScope(ctx.db, scopeOf(ctx.caller), id);
  if (!company) throw notFound(what);
  return company;
}

const auditEntry = (
  ctx: ServiceContext,
  action: string,
  companyId: number,
  details?: Record<string, unknown>,
) => callerAudit(ctx, { action, companyId, targetType: 'company', targetId: companyId, details });

/** product §3 Company: each company with its credits, packs and data left. */
async function withBalances<T extends { id: number }>(ctx: ServiceContext, rows: T[]) {
  const balances = await balancesOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((row) => {
    const held = balances.get(row.id)!;
    return {
      ...row,
      credits_left: held.credits_left,
      packs_left: held.packs_left,
      remaining_data: held.remaining_data,
    };
  });
}

/**
 * Companies (product §2 users.companies, §3 Company, newCompany and moveCompany, §5). The
 * caller reaches only its own subtree; the root and the caller's own company never move.
 */
export const companiesService = {
  /** Companies in the caller's subtree (product §7 selector lists and search). */
  async list(ctx: ServiceContext, query: ListQuery, filters: CompanyFilters) {
    const page = await companiesRepository.list(ctx.db, scopeOf(ctx.caller), query, filters);
    return { ...page, rows: await withBalances(ctx, page.rows) };
  },

  async get(ctx: ServiceContext, id: number) {
    const company = await companiesRepository.find(ctx.db, scopeOf(ctx.caller), id);
    if (!company) throw notFound('Company');
    const [withResources] = await withBalances(ctx, [company]);
    return withResources!;
  },

  /** The caller's subtree for the tree page, bounded (product §2 company.tree). */
  tree(ctx: ServiceContext) {
    return companiesRepository.tree(ctx.db, scopeOf(ctx.caller));
  },

  async create(ctx: ServiceContext, input: { name: string; parent_id: number }) {
    const parent = await reachable(ctx, input.parent_id, 'Parent company');
    if (parent.level >= COMPANY_MAX_LEVEL) throw badRequest(PARENT_LEVEL_MESSAGE, 'parent_id');
    if (await companiesRepository.nameTaken(ctx.db, parent.id, input.name)) {
      throw conflict('A company with this name already exists under this parent', 'name');
    }
    const created = await audited(
      ctx.db,
      (tx) => companiesRepository.insert(tx, { name: input.name, parentId: parent.id }),
      (made) =>
        made ? auditEntry(ctx, 'company.create', made.id, { name: made.name, parent_id: parent.id }) : null,
    );
    if (!created) throw notFound('Parent company');
    return created;
  },

  async rename(ctx: ServiceContext, id: number, name: string) {
    const company = await reachable(ctx, id);
    if (company.name === name) throw badRequest(UNCHANGED_VALUE_MESSAGE, 'name');
    if (
      company.parentId !== null &&
      (await companiesRepository.nameTaken(ctx.db, company.parentId, name, company.id))
    ) {
      throw conflict('A company with this name already exists under this parent', 'name');
    }
    await audited(
      ctx.db,
      (tx) => companiesRepository.update(tx, id, { name }),
      () => auditEntry(ctx, 'company.rename', id, { from: company.name, to: name }),
    );
    return { ...company, name };
  },

  /** Moves a company and its whole subtree under another parent (product §3 moveCompany). */
  async move(ctx: ServiceContext, sourceId: number, targetId: number) {
    const source = await reachable(ctx, sourceId, 'Company to move');
    const target = await reachable(ctx, targetId, 'New parent company');
    if (source.parentId === null) throw badRequest('The top company cannot be moved', 'source');
    if (source.id === ctx.caller.principal.company.id)
      throw badRequest('You cannot move your own company', 'source');
    if (target.path.startsWith(source.path)) {
      throw badRequest('A company cannot be moved under itself or one of its subsidiaries', 'target');
    }
    if (source.parentId === target.id) throw badRequest('The company is already under this parent', 'target');
    // The level rule of newCompany holds for a moved subtree too: nothing below level 3.
    const height = await companiesRepository.subtreeHeight(ctx.db, source);
    if (target.level + 1 + height > COMPANY_MAX_LEVEL) throw badRequest(MOVE_LEVEL_MESSAGE, 'target');
    if (await companiesRepository.nameTaken(ctx.db, target.id, source.name)) {
      throw conflict('A company with this name already exists under the new parent', 'target');
    }
    await audited(
      ctx.db,
      (tx) => companiesRepository.moveSubtree(tx, source, target),
      () => auditEntry(ctx, 'company.move', source.id, { from: source.parentId, to: target.id }),
    );
    return { id: source.id, parent_id: target.id, level: target.level + 1 };
  },

  /**
   * The company flags of product §2 'manage company flags' (show_payment, mfa_mandatory) and
   * the payment type. Only companies strictly below the caller's own: a customer must not
   * lift its own MFA duty or switch on payments for itself. A super admin may set any
   * company's flags, and alone decides whether a company is supplied paid or free, since
   * that is the operator's commercial arrangement with it (docs/decisions.md).
   */
  async setFlags(ctx: ServiceContext, id: number, flags: CompanyFlagsBody) {
    const company = await reachable(ctx, id);
    const superAdmin = ctx.caller.principal.permissions.includes('super_admin');
    if (!superAdmin && company.id === ctx.caller.principal.company.id)
      throw forbidden('You cannot change the flags of your own company');
    if (!superAdmin && flags.payment_type !== undefined && flags.payment_type !== company.paymentType)
      throw forbidden('Only the system administrator sets how a company pays for its resources');
    const changes = {
      ...(flags.show_payment === undefined ? {} : { showPayment: flags.show_payment }),
      ...(flags.mfa_mandatory === undefined ? {} : { mfaMandatory: flags.mfa_mandatory }),
      ...(flags.payment_type === undefined || !superAdmin ? {} : { paymentType: flags.payment_type }),
    };
    if (!Object.keys(changes).length) throw badRequest('Choose a flag to change');
    const after = {
      show_payment: changes.showPayment ?? company.showPayment,
      mfa_mandatory: changes.mfaMandatory ?? company.mfaMandatory,
      payment_type: changes.paymentType ?? (company.paymentType as CompanyPaymentType),
    };
    await audited(
      ctx.db,
      (tx) => companiesRepository.update(tx, id, changes),
      () =>
        auditEntry(ctx, 'company.flags', id, {
          from: {
            show_payment: company.showPayment,
            mfa_mandatory: company.mfaMandatory,
            payment_type: company.paymentType,
          },
          to: after,
        }),
    );
    return { id, ...after };
  },

  /**
   * Deletes an empty company. The rule (docs/decisions.md): a company with subsidiaries,
   * users or devices is refused with what remains named, so nothing is ever lost by a
   * delete; the operator moves or removes them first.
   */
  async remove(ctx: ServiceContext, id: number) {
    const company = await reachable(ctx, id);
    if (company.parentId === null) throw badRequest('The top company cannot be deleted');
    if (company.id === ctx.caller.principal.company.id)
      throw badRequest('You cannot delete your own company');
    const held = await companiesRepository.contents(ctx.db, id);
    const remaining = [
      [held.subsidiaries, 'subsidiary', 'subsidiaries'],
      [held.users, 'user', 'users'],
      [held.devices, 'device', 'devices'],
    ] as const;
    const resources = (await balancesOf(ctx, [id])).get(id)!.per_type.reduce((sum, b) => sum + b.left, 0);
    const left = [...remaining, [resources, 'resource', 'resources'] as const]
      .filter(([n]) => n > 0)
      .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
    if (left.length) {
      throw AppError.of(
        409,
        'CONFLICT',
        `The company still has ${left.join(', ')}. Move or remove them first.`,
      );
    }
    await audited(
      ctx.db,
      (tx) => companiesRepository.remove(tx, scopeOf(ctx.caller), id),
      () => auditEntry(ctx, 'company.delete', id, { name: company.name }),
    );
  },
};
