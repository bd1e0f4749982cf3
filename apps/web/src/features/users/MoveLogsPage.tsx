import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { MoveLogsTable } from './components/MoveLogsTable';

/** users.move-logs (product §2). */
export function MoveLogsPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params}>
      <MoveLogsTable />
    </PageFrame>
  );
}
