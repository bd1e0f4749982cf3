import type { BrandSettings } from '@fleetgate/shared/brand';
import { hasPermission, type Permission } from '@fleetgate/shared/permissions';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

export type Session = {
  user: CurrentUser;
  brand: BrandSettings;
  /** True when the user holds the permission (any of a list, or all with mode 'all'). */
  can(permission: Permission | readonly Permission[], mode?: 'any' | 'all'): boolean;
};

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({
  user,
  brand,
  children,
}: {
  user: CurrentUser;
  brand: BrandSettings;
  children: ReactNode;
}) {
  const value = useMemo<Session>(
    () => ({ user, brand, can: (permission, mode) => hasPermission(user.permissions, permission, mode) }),
    [user, brand],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** The signed-in user, their brand and permission checks. */
export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
