import { AppError, badRequest, notFound } from '#src/http/errors';
import type { ListQuery } from '#src/http/list-query';
import type { AuthContext } from '#src/plugins/auth';
import { audited } from '../audit/audit.service';
import { clearSecondStep } from '../mfa/clear';
import { scopeOf } from '../policy/scope';
import { companyInScope } from '../policy/scope.repository';
import { callerAudit, type ServiceContext } from '../service-context';
import { assertNotAbove, assignableRole } from './role-assignment';
import { userChangesRepository as repo, type UserSubject } from './user-changes.repository';
import { usersRepository } from './users.repository';

const auditEntry = (
  ctx: ServiceContext,
  action: string,
  user: UserSubject,
  details?: Record<string, unknown>,
) =>
  callerAudit(ctx, {
    action,
    companyId: user.companyId,
    targetType: 'user',
    targetId: user.id,
    details: { email: user.email, ...details },
  });

/** The people the session stands for: the user acted as, and the real person when impersonating. */
const selves = (caller: AuthContext) =>
  new Set([caller.principal.id, ...(caller.actor ? [caller.actor.id] : [])]);

async function oneInReach(ctx: ServiceContext, id: number): Promise<UserSubject> {
  const [user] = await repo.subjects(ctx.db, scopeOf(ctx.caller), [id]);
  if (!user) throw notFound('User');
  return user;
}

async function byEmail(ctx: ServiceContext, email: string): Promise<UserSubject> {
  const user = await repo.subjectByEmail(ctx.db, scopeOf(ctx.caller), email);
  if (!user) throw AppError.of(404, 'NOT_FOUND', 'User not found', 'email');
  return user;
}

/**
 * Users the caller reaches (product §2 users.table, §7 selector lists and search) and changes
 * to them: role, company, and the admin-only forms of product §3.
 */
export const usersService = {
  list(ctx: ServiceContext, query: ListQuery, filters: { companyId?: number }) {
    return usersRepository.list(ctx.db, scopeOf(ctx.caller), query, filters);
  },

  async get(ctx: ServiceContext, id: number) {
    const user = await usersRepository.find(ctx.db, scopeOf(ctx.caller), id);
    if (!user) throw notFound('User');
    return user;
  },

  /** 'edit user role' (product §2): the same rules as inviting, never one's own role. */
  async changeRole(ctx: ServiceContext, id: number, roleId: number) {
    const user = await oneInReach(ctx, id);
    if (selves(ctx.caller).has(user.id)) throw badRequest('You cannot change your own role', 'role_id');
    await assertNotAbove(ctx, user.roleId, user.email);
    const role = await assignableRole(ctx, roleId, user.companyId, 'role_id');
    if (role.id === user.roleId) throw badRequest('The user already has this role', 'role_id');
    await audited(
      ctx.db,
      (tx) => repo.setRole(tx, user.id, role.id),
      () => auditEntry(ctx, 'user.role.change', user, { from: user.roleId, to: role.id }),
    );
    return this.get(ctx, user.id);
  },

  /**
   * 'move users' (product §2, §7 /users/move): users and target both in reach, never
   * oneself, nobody above the caller, and nobody holding a custom role of their company
   * (it does not exist in the new one). Users already there are left as they are.
   */
  async move(ctx: ServiceContext, userIds: number[], companyId: number) {
    const scope = scopeOf(ctx.caller);
    const target = await companyInScope(ctx.db, scope, companyId);
    if (!target) throw AppError.of(404, 'NOT_FOUND', 'Company not found', 'company_id');
    const found = await repo.subjects(ctx.db, scope, userIds);
    if (found.length !== userIds.length) throw AppError.of(404, 'NOT_FOUND', 'User not found', 'user_ids');
    const me = selves(ctx.caller);
    for (const user of found) {
      if (me.has(user.id)) throw badRequest('You cannot move yourself', 'user_ids');
      if (user.roleName === 'super_admin' && user.roleCompanyId === null)
        throw badRequest(`${user.email} is a system administrator and stays in the top company`, 'user_ids');
      await assertNotAbove(ctx, user.roleId, user.email);
      if (user.roleCompanyId !== null && user.roleCompanyId !== target.id && user.companyId !== target.id)
        throw badRequest(
          `${user.email} has a custom role of their company. Give them a default role first.`,
          'user_ids',
        );
    }
    const moving = found.filter((u) => u.companyId !== target.id);
    await audited(
      ctx.db,
      (tx) =>
        repo.move(
          tx,
          moving.map((u) => ({ id: u.id, email: u.email, fromCompanyId: u.companyId })),
          target.id,
          ctx.caller.principal.id,
        ),
      () => moving.map((user) => auditEntry(ctx, 'user.move', user, { from: user.companyId, to: target.id })),
    );
    return { moved: moving.length, company_id: target.id };
  },

  /** Users moved between companies in reach (product §2 users.move-logs). */
  moveLogs(ctx: ServiceContext, query: ListQuery, filters: { companyId?: number }) {
    return repo.moveLogs(ctx.db, scopeOf(ctx.caller), query, filters);
  },

  /** removeUserMfa (product §3, super admin). */
  async removeMfa(ctx: ServiceContext, email: string) {
    const user = await byEmail(ctx, email);
    if (user.mfaType === null && !(await repo.hasTotp(ctx.db, user.id)))
      throw badRequest('This user has no two-step verification', 'email');
    await audited(
      ctx.db,
      (tx) => clearSecondStep(tx, user.id),
      () => auditEntry(ctx, 'user.mfa.remove', user, { mfa_type: user.mfaType }),
    );
  },

  /** deleteUser (product §3, super admin): never oneself, never the last super admin. */
  async remove(ctx: ServiceContext, email: string) {
    const user = await byEmail(ctx, email);
    if (selves(ctx.caller).has(user.id)) throw badRequest('You cannot delete yourself', 'email');
    if (user.roleName === 'super_admin' && (await repo.otherSuperAdmins(ctx.db, user.id)) === 0)
      throw badRequest('The last system administrator cannot be deleted', 'email');
    await audited(
      ctx.db,
      (tx) => repo.remove(tx, user.id),
      () => auditEntry(ctx, 'user.delete', user, { role_id: user.roleId }),
    );
  },

  /** makeSSOAdmin (product §3, super admin). */
  async makeSsoAdmin(ctx: ServiceContext, email: string) {
    const user = await byEmail(ctx, email);
    if (user.ssoAdmin) throw badRequest('This user is already an SSO administrator', 'email');
    await audited(
      ctx.db,
      (tx) => repo.setSsoAdmin(tx, user.id),
      () => auditEntry(ctx, 'user.sso_admin', user),
    );
  },
};
