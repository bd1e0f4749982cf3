import { Alert, Box, Center, Flex, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '#src/lib/http/results';
import { useSession } from '#src/lib/session/session-context';
import { useDevice } from '../api/devices';
import { type ResourceTypeJson, useCompanyBalances, useResourceTypes } from '../api/services';
import type { WithDevice } from '../dialogs';
import { manageServicesForm } from '../forms/service-forms';
import { offeredTypes, type ServicePreset, typesLeft } from '../utils/services';
import { FormDialog } from './FormDialogs';

type Props = WithDevice & ServicePreset;

/**
 * 'Manage services' (product §2 device dialog): the activation form, and beside it what the
 * device's company has left of each type on offer (data packs too), for users who may read
 * the credits.
 */
export function ManageServicesDialog({ id, pack }: Props) {
  const { can } = useSession();
  const types = useResourceTypes();
  const preset = useMemo(() => (pack ? { pack } : {}), [pack]);
  // One definition per list of types: the form keeps its values while the window lives.
  const definition = useMemo(
    () => (types.data ? manageServicesForm(types.data, preset) : null),
    [types.data, preset],
  );

  if (types.isError)
    return (
      <Alert color="red" role="alert">
        {failureMessage(types.error, 'get', 'resource types')}
      </Alert>
    );
  if (!definition || !types.data)
    return (
      <Center py="lg">
        <Loader size="sm" />
      </Center>
    );
  return (
    // On a phone what is left shows above the form; on a wider screen beside it.
    <Flex
      direction={{ base: 'column-reverse', sm: 'row' }}
      gap="lg"
      align={{ base: 'stretch', sm: 'flex-start' }}
    >
      <Box style={{ flex: 1, minWidth: 0 }}>
        <FormDialog definition={definition} id={id} />
      </Box>
      {can('view_credits') && <CompanyLeft deviceId={id} offered={offeredTypes(types.data, preset)} />}
    </Flex>
  );
}

/** 'Device pack' (product §2 device dialog): the same form, offering management packs only. */
export function DevicePackDialog(props: WithDevice) {
  return <ManageServicesDialog {...props} pack />;
}

/** What the device's company has left of the types on offer (GET /companies/{id}/resources). */
function CompanyLeft({ deviceId, offered }: { deviceId: number; offered: readonly ResourceTypeJson[] }) {
  const { t } = useTranslation('devices');
  const device = useDevice(deviceId);
  const balances = useCompanyBalances(device.data?.company_id ?? 0);
  const rows = typesLeft(offered, balances.data);
  return (
    <Paper
      withBorder
      p="sm"
      w={{ base: '100%', sm: 230 }}
      style={{ flex: 'none' }}
      data-testid="services-left"
    >
      <Stack gap={6}>
        <Text size="sm" fw={600}>
          {t('services.left')}
        </Text>
        {device.data && (
          <Text size="xs" c="dimmed" lineClamp={2} title={device.data.company_name}>
            {device.data.company_name}
          </Text>
        )}
        {balances.isError || device.isError ? (
          <Text size="sm" c="dimmed">
            {failureMessage(balances.error ?? device.error, 'get', 'company resources')}
          </Text>
        ) : !balances.data ? (
          <Loader size="xs" />
        ) : rows.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="services-left-none">
            {t('services.noneLeft')}
          </Text>
        ) : (
          rows.map((row) => (
            <Group
              key={row.id}
              justify="space-between"
              wrap="nowrap"
              gap="xs"
              data-testid="services-left-row"
            >
              <Text size="sm" miw={0} style={{ overflowWrap: 'anywhere' }}>
                {row.name}
              </Text>
              <Text size="sm" fw={600} data-testid="services-left-count">
                {row.left}
              </Text>
            </Group>
          ))
        )}
      </Stack>
    </Paper>
  );
}
