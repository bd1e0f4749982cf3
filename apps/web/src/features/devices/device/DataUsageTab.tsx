import { Alert, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { currentTimezone } from '#src/lib/time';
import { useDailyUsage, useDeviceMetrics } from '../api/devices';
import type { DeviceDetail } from '../api/types';
import { TimeChart } from '../charts/TimeChart';
import { formatBytes } from '../utils/format';
import type { ChartData } from '../utils/series';
import { DeviceFrame } from './DeviceFrame';

const DAYS = 30;
const REFRESH_MS = 5 * 60_000;

/** Tab device.data-usage: mobile data used per day for 30 days, and the totals. */
export function DataUsageTab({ chain, params }: PageProps) {
  return (
    <DeviceFrame chain={chain} params={params}>
      {(device) => <DataUsage device={device} />}
    </DeviceFrame>
  );
}

function Total({ label, rx, tx, testId }: { label: string; rx: number; tx: number; testId: string }) {
  const { t } = useTranslation('devices');
  return (
    <Paper withBorder p="md" data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg">
        {formatBytes(rx + tx)}
      </Text>
      <Text size="xs" c="dimmed">
        {t('metrics.received')} {formatBytes(rx)} · {t('metrics.sent')} {formatBytes(tx)}
      </Text>
    </Paper>
  );
}

function DataUsage({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const metrics = useDeviceMetrics(device.id, REFRESH_MS);
  // Data used per day of the user's zone, in bytes shown base 1024 (product §9).
  const zone = currentTimezone();
  const daily = useDailyUsage(device.id, DAYS, zone, REFRESH_MS);
  const data = useMemo((): ChartData => {
    const days = daily.data ?? [];
    return [days.map((d) => dayjs.tz(d.day, zone).unix()), days.map((d) => d.rx), days.map((d) => d.tx)];
  }, [daily.data, zone]);
  const usage = metrics.data?.data_usage;

  if (!device.capabilities.has_data_usage) {
    return (
      <Alert color="gray" variant="light" data-testid="no-data-usage">
        {t('dataUsage.none')}
      </Alert>
    );
  }
  return (
    <Stack gap="md">
      {(metrics.isError || daily.isError) && (
        <Alert color="red" role="alert">
          {failureMessage(metrics.error ?? daily.error, 'get', 'data usage')}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Total
          label={t('dataUsage.last24h')}
          rx={usage?.last_24h.rx ?? 0}
          tx={usage?.last_24h.tx ?? 0}
          testId="usage-24h"
        />
        <Total
          label={t('dataUsage.last30d')}
          rx={usage?.last_30d.rx ?? 0}
          tx={usage?.last_30d.tx ?? 0}
          testId="usage-30d"
        />
      </SimpleGrid>
      <TimeChart
        title={t('dataUsage.perDay')}
        data={data}
        bars
        daily
        series={[
          {
            label: t('metrics.received'),
            color: '#2f9e44',
            format: (v) => formatBytes(v),
            axis: (v) => formatBytes(v),
          },
          {
            label: t('metrics.sent'),
            color: '#1c7ed6',
            format: (v) => formatBytes(v),
            axis: (v) => formatBytes(v),
          },
        ]}
        testId="chart-daily-usage"
      />
    </Stack>
  );
}
