import { Alert, Center, List, Loader, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '#src/lib/http/results';
import { useResourceTypes } from '../api/services';
import { bulkServicesForm } from '../forms/service-forms';
import { FormDialog } from './FormDialogs';

export type BulkServicesProps = { devices: readonly { id: number; name: string }[] };

/**
 * 'Manage services' for the devices table's selection (POST /devices/services): the devices
 * it reaches, then the activation form; one unit per device, all or none.
 */
export function BulkServicesDialog({ devices }: BulkServicesProps) {
  const { t } = useTranslation('devices');
  const types = useResourceTypes();
  // The selection is fixed when the dialog opens: one definition for the window's life.
  const definition = useMemo(
    () =>
      types.data
        ? bulkServicesForm(
            types.data,
            devices.map((device) => device.id),
          )
        : null,
    [types.data, devices],
  );

  if (types.isError)
    return (
      <Alert color="red" role="alert">
        {failureMessage(types.error, 'get', 'resource types')}
      </Alert>
    );
  if (!definition)
    return (
      <Center py="lg">
        <Loader size="sm" />
      </Center>
    );
  return (
    <Stack data-testid="bulk-services">
      <Stack gap={4}>
        <Text size="sm" fw={500} data-testid="bulk-services-count">
          {t('services.bulk.intro', { count: devices.length })}
        </Text>
        <List
          size="sm"
          mah={120}
          style={{ overflow: 'auto', overflowWrap: 'anywhere' }}
          data-testid="bulk-services-devices"
        >
          {devices.map((device) => (
            <List.Item key={device.id}>{device.name || `#${device.id}`}</List.Item>
          ))}
        </List>
      </Stack>
      <FormDialog definition={definition} />
    </Stack>
  );
}
