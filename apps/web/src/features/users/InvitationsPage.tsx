import { PageFrame } from '../../app/layout/PageFrame';
import type { PageProps } from '../../app/router/RouteScreen';
import { InvitationsTable } from './components/InvitationsTable';

/** users.invitations (product §2). */
export function InvitationsPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params}>
      <InvitationsTable />
    </PageFrame>
  );
}
