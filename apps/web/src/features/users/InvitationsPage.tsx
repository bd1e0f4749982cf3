import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { InvitationsTable } from './components/InvitationsTable';

/** users.invitations (product §2). */
export function InvitationsPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params}>
      <InvitationsTable />
    </PageFrame>
  );
}
