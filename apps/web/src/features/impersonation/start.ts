import { clearResponseCache } from '#src/lib/http/client';
import { impersonationActions } from './api/impersonation';

/**
 * Starts acting as a user: the server answers with new session cookies; a full load
 * starts the console again as that user (banner included).
 */
export async function startImpersonation(userId: number): Promise<void> {
  const { location } = (await impersonationActions.start(userId)).data;
  clearResponseCache();
  window.location.assign(location);
}

/** product §4: cancelling impersonation refreshes the token (the actor's own session) and reloads. */
export async function cancelImpersonation(): Promise<void> {
  await impersonationActions.cancel();
  clearResponseCache();
  window.location.reload();
}
