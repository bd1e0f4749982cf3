import { useSession } from '../session/session-context';
import type { Access } from './guards';

/** The user's permissions and the brand's disabled routes, as the guards want them. */
export function useAccess(): Access {
  const { user, brand } = useSession();
  return { permissions: user.permissions, disabledRoutes: brand.disabled_routes };
}
