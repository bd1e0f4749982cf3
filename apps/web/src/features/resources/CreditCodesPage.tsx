import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { NewCodeButton, TransferCodesTable } from './components/TransferCodesTable';

/** services.credit-codes (product §2): the transfer codes the caller may read, 'New code' and cancel. */
export function CreditCodesPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params} actions={<NewCodeButton />}>
      <TransferCodesTable />
    </PageFrame>
  );
}
