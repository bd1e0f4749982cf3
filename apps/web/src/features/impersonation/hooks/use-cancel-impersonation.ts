import { useState } from 'react';
import { useAction } from '#src/lib/http/use-action';
import { cancelImpersonation } from '../start';

/**
 * 'Cancel impersonation' (product §4: the token is refreshed and the page reloads), for the
 * banner and the account menu. `pending` lasts until the reload has taken the page away.
 */
export function useCancelImpersonation() {
  const [leaving, setLeaving] = useState(false);
  const action = useAction({
    call: () => cancelImpersonation(),
    failure: { verb: 'cancel', item: 'impersonation' },
    onSuccess: () => setLeaving(true),
    // As before, a failed cancel leaves the user where they were, without a message.
    onFailure: () => {},
  });
  return { run: action.run, pending: action.pending || leaving };
}
