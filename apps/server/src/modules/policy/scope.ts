import type { AuthContext } from '#src/plugins/auth';

/**
 * Which companies a caller reaches (product §6): the whole subtree under their company for
 * roles that see companies (super admin from the root, admins, advanced guests), only
 * their own company for the others (end clients, guests).
 */
export type Scope = {
  companyId: number;
  path: string;
  subtree: boolean;
  /** The subtree of the root company: every company, so no filter is needed. */
  everything?: boolean;
};

export function scopeOf(auth: AuthContext): Scope {
  const { company, subtree } = auth.principal;
  // The root company is the only one without a parent (companies are created under one).
  return {
    companyId: company.id,
    path: company.path,
    subtree,
    everything: subtree && company.parentId === null,
  };
}
