import { Alert, Center, Loader } from '@mantine/core';
import { type ReactNode, useEffect, useState } from 'react';
import { api } from '#src/lib/http/client';

type Shared = { device_name: string; entry_name: string; protocol: string; expires_at: string };

/**
 * A share link's launcher (product §2: a key in the address skips sign-in): asks the server
 * what the key opens before showing the screen, and says in the server's words when it opens
 * nothing (unknown, expired, revoked).
 */
export function SharedGate({
  shareKey,
  testId,
  children,
}: {
  shareKey: string;
  testId: string;
  children: ReactNode;
}) {
  const [state, setState] = useState<{ shared?: Shared; error?: string }>();
  useEffect(() => {
    api.get<Shared>(`/remote/share/${encodeURIComponent(shareKey)}`).then(
      (result) => setState({ shared: result.data }),
      (error: unknown) => setState({ error: error instanceof Error ? error.message : String(error) }),
    );
  }, [shareKey]);
  if (!state)
    return (
      <Center mih="100vh">
        <Loader />
      </Center>
    );
  if (state.error)
    return (
      <Center mih="100vh" p="md" data-testid={testId}>
        <Alert color="red" maw={480} role="alert" data-testid={`${testId}-key`}>
          {state.error}
        </Alert>
      </Center>
    );
  return children;
}
