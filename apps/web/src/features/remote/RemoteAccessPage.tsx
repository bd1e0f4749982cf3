import { Button, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { RemoteEntriesTable } from './components/RemoteEntriesTable';

/** 'Add remote' (product §2 dialog), for holders of manage_devices; on a device's tab it starts from that device. */
export function AddRemoteButton({ device }: { device?: { id: number; name: string } }) {
  const { t } = useTranslation('remote');
  const { can } = useSession();
  if (!can('manage_devices')) return null;
  return (
    <Button
      leftSection={<IconPlus size={16} />}
      onClick={async () => {
        const { addRemoteForm } = await import('./forms/remote-forms');
        await openForm(await addRemoteForm(device ? { device } : {}));
      }}
      data-testid="remote-add"
    >
      {t('add.title')}
    </Button>
  );
}

/** remote.access (product §2): every remote entry of the devices the caller reaches, 'Add remote'. */
export function RemoteAccessPage({ chain, params }: PageProps) {
  return (
    <PageFrame chain={chain} params={params} actions={<AddRemoteButton />}>
      <Stack>
        <RemoteEntriesTable />
      </Stack>
    </PageFrame>
  );
}
