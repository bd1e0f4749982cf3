import { Navigate } from 'react-router';
import { useAccess } from '#src/lib/routing/access';
import { firstPermittedPath } from '#src/lib/routing/guards';

/** Sends the user to the first page they may see (product §5); the main app handles "none". */
export function FirstPermitted() {
  const path = firstPermittedPath(useAccess());
  return <Navigate to={path ?? '/404'} replace />;
}
