import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { CreditHistoryTable } from './components/CreditHistoryTable';
import { HistoryActions } from './components/HistoryActions';

/** services.credit-history (product §2): every pool and movement the caller may read, and its actions. */
export function CreditHistoryPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params} actions={<HistoryActions />}>
      <CreditHistoryTable />
    </PageFrame>
  );
}
