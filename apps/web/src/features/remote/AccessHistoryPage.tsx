import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { SessionsTable } from './components/SessionsTable';

/** service.connect-history (product §2): every remote session of the devices the caller reaches. */
export function AccessHistoryPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params}>
      <SessionsTable />
    </PageFrame>
  );
}
