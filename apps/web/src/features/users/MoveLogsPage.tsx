import { PageFrame } from '../../app/layout/PageFrame';
import type { PageProps } from '../../app/router/RouteScreen';
import { MoveLogsTable } from './components/MoveLogsTable';

/** users.move-logs (product §2). */
export function MoveLogsPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params}>
      <MoveLogsTable />
    </PageFrame>
  );
}
