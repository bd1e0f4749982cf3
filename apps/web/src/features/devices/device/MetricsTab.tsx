import { Alert, Group, Paper, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { useUserStorage } from '#src/lib/storage/user-storage';
import { useDeviceMetrics, useTelemetry } from '../api/devices';
import type { ChartPoint, DeviceDetail } from '../api/types';
import { type ChartSeries, TimeChart } from '../charts/TimeChart';
import { useLiveTelemetry } from '../hooks/use-live-telemetry';
import {
  CHART_RANGES,
  type ChartRange,
  DEFAULT_REFRESH_SECONDS,
  REFRESH_INTERVALS,
} from '../utils/constants';
import {
  formatBytes,
  formatCoordinate,
  formatCurrent,
  formatSignal,
  formatTemperature,
  formatUnit,
  formatUptime,
  formatVoltage,
  text,
} from '../utils/format';
import { type ChartData, counterDeltas, type SeriesKey, toChartData, withLivePoints } from '../utils/series';
import { DeviceFrame } from './DeviceFrame';

export type MetricsKind = 'dynamic' | 'mobile-data' | 'io' | 'gps';

type ChartDef = {
  id: string;
  title: string;
  keys: SeriesKey[];
  series: ChartSeries[];
  /** Byte counters shown as the data used per interval. */
  deltas?: boolean;
};

const dB = (v: number) => formatUnit(v, 'dB');
/** As the data-usage tab: totals over 30 days move slowly. */
const USAGE_REFRESH_MS = 5 * 60_000;

function chartsOf(kind: MetricsKind, t: (key: string) => string): ChartDef[] {
  switch (kind) {
    case 'dynamic':
      return [
        {
          id: 'signal',
          title: t('metrics.signal'),
          keys: ['signal'],
          series: [{ label: t('metrics.signal'), color: '#1c7ed6', format: formatSignal }],
        },
        {
          id: 'temperature',
          title: t('metrics.temperature'),
          keys: ['temperature'],
          series: [{ label: t('metrics.temperature'), color: '#e8590c', format: formatTemperature }],
        },
      ];
    case 'mobile-data':
      return [
        {
          id: 'data',
          title: t('metrics.dataUsage'),
          keys: ['rx_bytes', 'tx_bytes'],
          deltas: true,
          series: [
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
          ],
        },
        {
          id: 'rsrp',
          title: t('metrics.rsrp'),
          keys: ['rsrp'],
          series: [{ label: 'RSRP', color: '#7048e8', format: formatSignal }],
        },
        {
          id: 'quality',
          title: t('metrics.quality'),
          keys: ['rsrq', 'sinr'],
          series: [
            { label: 'RSRQ', color: '#f08c00', format: dB },
            { label: 'SINR', color: '#0ca678', format: dB },
          ],
        },
      ];
    case 'io':
      return [
        {
          id: 'analog',
          title: t('metrics.analog'),
          keys: ['ain'],
          series: [{ label: t('metrics.analog'), color: '#1c7ed6', format: formatVoltage }],
        },
        {
          id: 'current',
          title: t('metrics.current'),
          keys: ['acl'],
          series: [{ label: t('metrics.current'), color: '#d6336c', format: formatCurrent }],
        },
      ];
    case 'gps':
      return [
        {
          id: 'speed',
          title: t('metrics.speed'),
          keys: ['speed'],
          series: [{ label: t('metrics.speed'), color: '#1c7ed6', format: (v) => formatUnit(v, 'km/h') }],
        },
        {
          id: 'altitude',
          title: t('metrics.altitude'),
          keys: ['alt'],
          series: [{ label: t('metrics.altitude'), color: '#2f9e44', format: (v) => formatUnit(v, 'm') }],
        },
        {
          id: 'satellites',
          title: t('metrics.satellites'),
          keys: ['satellites'],
          series: [{ label: t('metrics.satellites'), color: '#f08c00', format: (v) => formatUnit(v, '') }],
        },
      ];
  }
}

function dataOf(def: ChartDef, points: readonly ChartPoint[]): ChartData {
  const data = toChartData(points, def.keys);
  if (!def.deltas) return data;
  const [xs, ...values] = data;
  return [xs, ...values.map(counterDeltas)];
}

/** Whether the model reports this tab's values (product §3 derived capabilities). */
function capable(device: DeviceDetail, kind: MetricsKind): boolean {
  const caps = device.capabilities;
  if (kind === 'mobile-data') return caps.has_mobile;
  if (kind === 'io') return caps.has_io;
  if (kind === 'gps') return caps.has_gps;
  return true;
}

/** Tabs device.metrics.*: charts with the refresh choices and units of product §9. */
export function MetricsTab({ chain, params, route }: PageProps) {
  const kind = (route.name.replace('device.metrics.', '') || 'dynamic') as MetricsKind;
  return (
    <DeviceFrame chain={chain} params={params}>
      {(device) => <Metrics device={device} kind={kind} />}
    </DeviceFrame>
  );
}

function Metrics({ device, kind }: { device: DeviceDetail; kind: MetricsKind }) {
  const { t } = useTranslation('devices');
  const [storedRange, setRange] = useUserStorage<string>('devices.metrics.range', '1h');
  const [storedRefresh, setRefresh] = useUserStorage<number>(
    'devices.metrics.refresh',
    DEFAULT_REFRESH_SECONDS,
  );
  const range = CHART_RANGES.find((r) => r.value === storedRange) ?? CHART_RANGES[0];
  const refresh = REFRESH_INTERVALS.find((r) => r.value === storedRefresh)?.value ?? DEFAULT_REFRESH_SECONDS;
  const series = useTelemetry(device.id, range.seconds, range.bucket, refresh * 1000);
  const live = useLiveTelemetry(device.id);
  const points = useMemo(() => withLivePoints(series.data ?? [], live), [series.data, live]);
  const charts = useMemo(() => chartsOf(kind, t), [kind, t]);
  // On a phone the ranges share the screen's width instead of running past its edge.
  const phone = useMediaQuery('(max-width: 36em)') ?? false;

  return (
    <Stack gap="md" data-testid="device-metrics" data-kind={kind}>
      <Group justify="space-between" wrap="wrap">
        <SegmentedControl
          value={range.value}
          onChange={(value) => setRange(value as ChartRange)}
          data={CHART_RANGES.map((r) => ({ value: r.value, label: t(`range.${r.value}`) }))}
          fullWidth={phone}
          size={phone ? 'xs' : 'sm'}
          w={phone ? '100%' : undefined}
          data-testid="chart-range"
        />
        <Select
          label={t('metrics.refresh')}
          data={REFRESH_INTERVALS.map((r) => ({ value: String(r.value), label: r.label }))}
          value={String(refresh)}
          onChange={(value) => value && setRefresh(Number(value))}
          allowDeselect={false}
          w={140}
          data-testid="chart-refresh"
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
      {!capable(device, kind) && (
        <Alert color="gray" variant="light" data-testid="metrics-not-capable">
          {t(`metrics.notCapable.${kind}`)}
        </Alert>
      )}
      <LatestValues device={device} kind={kind} />
      {series.isError && (
        <Alert color="red" role="alert">
          {failureMessage(series.error, 'get', 'telemetry')}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {charts.map((def) => (
          <TimeChart
            key={def.id}
            title={def.title}
            series={def.series}
            data={dataOf(def, points)}
            bars={def.deltas}
            testId={`chart-${def.id}`}
          />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** The last reported values of this tab's kind (product §8: invalid values show a dash). */
function LatestValues({ device, kind }: { device: DeviceDetail; kind: MetricsKind }) {
  const { t } = useTranslation('devices');
  // The 30-day totals of the data-usage tab: one definition of a period's total (telemetry.repository).
  const usage = useDeviceMetrics(
    device.id,
    kind === 'mobile-data' ? USAGE_REFRESH_MS : false,
    kind === 'mobile-data',
  ).data?.data_usage.last_30d;
  const state = (device.state ?? {}) as Record<string, unknown>;
  const io = (state.io ?? {}) as Record<string, unknown[] | undefined>;
  const gps = (state.gps ?? {}) as Record<string, unknown>;
  const values: [string, string][] =
    kind === 'dynamic'
      ? [
          [t('metrics.signal'), formatSignal(state.signal)],
          [t('metrics.temperature'), formatTemperature(state.temperature)],
          [t('column.uptime'), formatUptime(state.uptime)],
          [t('metrics.cpu'), formatUnit(state.cpu, '%')],
          [t('metrics.memory'), formatUnit(state.memory, '%')],
        ]
      : kind === 'mobile-data'
        ? [
            [t('column.operator'), text(state.operator)],
            [t('metrics.networkType'), text(state.network_type)],
            [t('metrics.receivedTotal'), formatBytes(usage?.rx)],
            [t('metrics.sentTotal'), formatBytes(usage?.tx)],
          ]
        : kind === 'io'
          ? [
              [t('metrics.digitalIn'), (io.din ?? []).map((v) => (v ? '1' : '0')).join(' ') || '-'],
              [t('metrics.digitalOut'), (io.dout ?? []).map((v) => (v ? '1' : '0')).join(' ') || '-'],
              [t('metrics.analog'), formatVoltage(io.ain?.[0])],
              [t('metrics.current'), formatCurrent(io.acl?.[0])],
            ]
          : [
              [t('location.latitude'), formatCoordinate(gps.lat, 'lat')],
              [t('location.longitude'), formatCoordinate(gps.lon, 'lon')],
              [t('metrics.altitude'), formatUnit(gps.alt, 'm')],
              [t('metrics.speed'), formatUnit(gps.speed, 'km/h')],
              [t('metrics.satellites'), formatUnit(gps.satellites, '').trim()],
            ];
  return (
    <Paper withBorder p="sm">
      <SimpleGrid cols={{ base: 2, md: values.length }} data-testid="latest-values">
        {values.map(([label, value]) => (
          <Stack key={label} gap={0}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text fw={600}>{value}</Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}
