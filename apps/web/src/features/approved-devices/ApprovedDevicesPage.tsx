import { Button, Group, Text } from '@mantine/core';
import { IconFileImport, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { PageFrame } from '#src/components/page/PageFrame';
import { useWindows } from '#src/lib/dialogs/use-windows';
import type { PageProps } from '#src/lib/routing/page';
import { ApprovedDevicesTable } from './components/ApprovedDevicesTable';
import { newApprovedDeviceForm } from './forms/approved-device-forms';

/**
 * auth.devices (product §2, super_admin): the serial and MAC pairs approved in advance, each
 * registering itself into its company on first contact; add one, import a CSV, remove one.
 */
export function ApprovedDevicesPage({ chain, params }: PageProps) {
  const { t } = useTranslation('approved-devices');
  const windows = useWindows();
  const actions = (
    <Group gap="xs">
      <Button
        variant="default"
        leftSection={<IconFileImport size={16} />}
        onClick={() => windows.openNamed('importApprovedDevices', {}, { id: 'importApprovedDevices' })}
        data-testid="approved-import"
      >
        {t('action.import')}
      </Button>
      <Button
        leftSection={<IconPlus size={16} />}
        onClick={async () => void openForm(await newApprovedDeviceForm())}
        data-testid="approved-add"
      >
        {t('action.add')}
      </Button>
    </Group>
  );
  return (
    <PageFrame chain={chain} params={params} actions={actions}>
      <Text size="sm" c="dimmed" mb="sm" maw={720}>
        {t('page.intro')}
      </Text>
      <ApprovedDevicesTable />
    </PageFrame>
  );
}
