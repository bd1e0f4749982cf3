import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { NewTagButton, TagsTable } from './components/TagsTable';

/** tags.main (product §2): every tag the caller reaches, with create, edit and delete. */
export function TagsPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params} actions={<NewTagButton />}>
      <TagsTable />
    </PageFrame>
  );
}
