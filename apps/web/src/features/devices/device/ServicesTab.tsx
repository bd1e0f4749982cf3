import { deviceChannels } from '@fleetgate/shared/devices/events';
import { pathOf } from '@fleetgate/shared/routes';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowsExchange, IconCirclePlus, IconPlayerPlay, IconPower } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import type { DialogName } from '#src/lib/dialogs/registry';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { failureMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { useChannel } from '#src/lib/socket/useChannel';
import { formatTime } from '#src/lib/time';
import { deviceKeys } from '../api/devices';
import {
  type ConnectionAttemptJson,
  type DeviceServiceJson,
  type ServiceMovementJson,
  serviceActions,
  serviceKeys,
  useConnectionAttempts,
  useDeviceService,
  useServiceHistory,
} from '../api/services';
import type { DeviceDetail } from '../api/types';
import { text } from '../utils/format';
import { serviceView } from '../utils/services';
import { DeviceFrame } from './DeviceFrame';

const PAGE_SIZE = 10;
/** Refused attempts change no status: the log is read again while the tab is open. */
const ATTEMPTS_REFRESH_MS = 10_000;
const nowrap = { whiteSpace: 'nowrap' } as const;

/**
 * Tab device.services (product §2, update_device_credit_status): the device's service (on or
 * ended, until when, what paid for it, auto-renew), its activation ('manage services') and
 * its end, the activations and renewals, and the connection attempts that show what the
 * gateway made of it (product §8 code 15: no active credit).
 */
export function ServicesTab({ chain, params }: PageProps) {
  return (
    <DeviceFrame chain={chain} params={params}>
      {(device) => <Services device={device} />}
    </DeviceFrame>
  );
}

function Services({ device }: { device: DeviceDetail }) {
  const { can } = useSession();
  const queryClient = useQueryClient();
  // Going offline or online may follow the service (ended by the sweeper, activated elsewhere).
  useChannel(deviceChannels.device(device.id), 'DeviceStatusChanged', () => {
    void queryClient.invalidateQueries({ queryKey: serviceKeys.service(device.id) });
    void queryClient.invalidateQueries({ queryKey: [...deviceKeys.detail(device.id), 'attempts'] });
  });
  return (
    <Stack gap="lg">
      <ServiceSummary device={device} />
      {can('view_credits') && <ServiceHistory deviceId={device.id} />}
      <ConnectionLog deviceId={device.id} />
    </Stack>
  );
}

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={2} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

function ServiceSummary({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const service = useDeviceService(device.id);
  return (
    <Paper withBorder p="md">
      <Stack gap="md">
        <Title order={4}>{t('services.title')}</Title>
        {service.isError ? (
          <Alert color="red" role="alert">
            {failureMessage(service.error, 'get', 'service')}
          </Alert>
        ) : !service.data ? (
          <Center py="md">
            <Loader size="sm" />
          </Center>
        ) : (
          <ServiceState device={device} service={service.data} />
        )}
      </Stack>
    </Paper>
  );
}

function ServiceState({ device, service }: { device: DeviceDetail; service: DeviceServiceJson }) {
  const { t } = useTranslation('devices');
  const { can } = useSession();
  const windows = useWindows();
  const view = serviceView(service);
  const autoRenew = useAction({
    call: (on: boolean) => serviceActions.setAutoRenew(device.id, on),
    failure: { verb: 'update', item: 'service' },
    invalidate: [serviceKeys.service(device.id)],
    // The server's 'Service updated successfully'; these words if it has none.
    success: t('services.updated'),
  });
  const switchService = useAction({
    call: (active: boolean) => serviceActions.setActive(device.id, active),
    failure: { verb: 'update', item: 'service' },
    invalidate: [serviceKeys.all, deviceKeys.detail(device.id)],
    success: (_result, active) => t(active ? 'services.resumed' : 'services.ended'),
  });
  const open = (name: DialogName) =>
    windows.openNamed(name, { id: device.id, name: device.name }, { id: `${name}:${device.id}` });

  async function end() {
    const yes = await windows.confirm({
      title: t('services.end.title'),
      message: t('services.end.message', { name: text(device.name) }),
      confirmLabel: t('services.end.confirm'),
      danger: true,
      id: `device.endService:${device.id}`,
    });
    if (yes) await switchService.run(false);
  }

  const renewing = autoRenew.pending ? Boolean(autoRenew.variables) : service.auto_renew;
  return (
    <Stack gap="md" data-testid="device-service" data-status={view.status}>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" verticalSpacing="sm">
        <Field label={t('services.status')}>
          <Badge
            color={view.status === 'active' ? 'green' : 'red'}
            variant="light"
            data-testid="service-status"
          >
            {t(`services.status.${view.status}`)}
          </Badge>
        </Field>
        <Field label={t('services.until')} testId="service-until">
          {formatTime(service.service_until)}
        </Field>
        <Field label={t('services.paidBy')} testId="service-paid-by">
          {view.paidBy ?? t('services.trial')}
        </Field>
        <Field label={t('services.dataPacks')} testId="service-data-packs">
          {service.data_packs.length === 0
            ? '-'
            : service.data_packs.map((pack) => (
                <div key={pack.credit_type}>
                  {t('services.dataPack', { name: pack.credit_type_name, left: pack.left })}
                </div>
              ))}
        </Field>
      </SimpleGrid>
      <Switch
        label={t('services.autoRenew')}
        description={t('services.autoRenewHint')}
        checked={renewing}
        disabled={autoRenew.pending}
        onChange={(event) => void autoRenew.run(event.currentTarget.checked)}
        data-testid="service-auto-renew"
      />
      {view.status === 'ended' && (
        <Alert color="orange" variant="light" data-testid="service-ended-note">
          {t(view.resumable ? 'services.endedResumable' : 'services.endedNote')}
        </Alert>
      )}
      <Group gap="xs">
        <Button
          leftSection={<IconCirclePlus size={16} />}
          onClick={() => open('device.manageServices')}
          data-testid="service-activate"
        >
          {t('services.activate')}
        </Button>
        {can('move_devices_credits') && (
          <Button
            variant="default"
            leftSection={<IconArrowsExchange size={16} />}
            onClick={() => open('device.moveResources')}
            data-testid="service-move"
          >
            {t('services.move')}
          </Button>
        )}
        {view.resumable && (
          <Button
            variant="default"
            leftSection={<IconPlayerPlay size={16} />}
            loading={switchService.pending}
            onClick={() => void switchService.run(true)}
            data-testid="service-resume"
          >
            {t('services.resume')}
          </Button>
        )}
        {service.active && (
          <Button
            color="red"
            variant="light"
            leftSection={<IconPower size={16} />}
            loading={switchService.pending}
            onClick={() => void end()}
            data-testid="service-end"
          >
            {t('services.end.button')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function ServiceHistory({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('devices');
  const [page, setPage] = useState(1);
  const list = useServiceHistory(deviceId, page, PAGE_SIZE, true);
  const columns: Column<ServiceMovementJson>[] = [
    {
      key: 'time',
      header: t('services.history.time'),
      render: (row) => <span style={nowrap}>{formatTime(row.created_at)}</span>,
    },
    {
      key: 'action',
      header: t('services.history.action'),
      render: (row) => <HistoryAction row={row} deviceId={deviceId} />,
    },
    { key: 'type', header: t('services.history.type'), render: (row) => text(row.credit_type_name) },
    {
      key: 'by',
      header: t('services.history.by'),
      // A renewal is the sweeper's: nobody did it.
      render: (row) => row.user_email ?? t('services.history.automatic'),
    },
  ];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('services.history.title')}</Title>
        <PagedTable
          columns={columns}
          {...pageQueryProps(list, 'service history')}
          page={page}
          pageSize={PAGE_SIZE}
          onPage={setPage}
          label={t('services.history.title')}
          empty={t('services.history.empty')}
          testId="service-history"
          minWidth={560}
          rowProps={(row) => ({ 'data-action': row.action })}
        />
      </Stack>
    </Paper>
  );
}

/** What a movement did to this device; a move names the other device, linked to its services. */
function HistoryAction({ row, deviceId }: { row: ServiceMovementJson; deviceId: number }) {
  const { t } = useTranslation('devices');
  if (row.action !== 'move_days' && row.action !== 'move_pack')
    return t(`services.history.${row.action}`, { defaultValue: row.action });
  const outgoing = row.device_id === deviceId;
  const other = outgoing ? row.target_device_id : row.device_id;
  return (
    <Trans
      t={t}
      i18nKey={`services.history.${row.action}.${outgoing ? 'out' : 'in'}`}
      count={row.amount}
      values={{ count: row.amount, device: other ?? '-' }}
      components={{
        device:
          other === null ? (
            <span />
          ) : (
            <Anchor
              component={Link}
              to={pathOf('device.services', { id: other })}
              fz="inherit"
              style={{ whiteSpace: 'nowrap' }}
            />
          ),
      }}
    />
  );
}

function ConnectionLog({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('devices');
  const [page, setPage] = useState(1);
  const list = useConnectionAttempts(deviceId, page, PAGE_SIZE, ATTEMPTS_REFRESH_MS);
  const columns: Column<ConnectionAttemptJson>[] = [
    {
      key: 'time',
      header: t('services.attempts.time'),
      render: (row) => <span style={nowrap}>{formatTime(row.at)}</span>,
    },
    { key: 'code', header: t('services.attempts.code'), render: (row) => row.success },
    // product §8: the log's text by success code, as the server words it.
    { key: 'text', header: t('services.attempts.result'), render: (row) => text(row.text) },
  ];
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={4}>{t('services.attempts.title')}</Title>
        <PagedTable
          columns={columns}
          {...pageQueryProps(list, 'connection attempts')}
          page={page}
          pageSize={PAGE_SIZE}
          onPage={setPage}
          label={t('services.attempts.title')}
          empty={t('services.attempts.empty')}
          testId="connection-attempts"
          minWidth={520}
          rowProps={(row) => ({ 'data-code': row.success })}
        />
      </Stack>
    </Paper>
  );
}
