import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { createContext, useContext } from 'react';

export type AccountSession = {
  user: CurrentUser;
  /** Reads GET /user again (after a change to the profile or the second step). */
  reload(): Promise<void>;
};

export const AccountSessionContext = createContext<AccountSession | null>(null);

/** The signed-in user of the account pages. */
export function useAccountSession(): AccountSession {
  const session = useContext(AccountSessionContext);
  if (!session) throw new Error('useAccountSession outside the account settings');
  return session;
}
