import { Alert, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, PagedTable } from '#src/components/table/PagedTable';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { formatTime } from '#src/lib/time';
import { useTelemetry } from '../api/devices';
import type { DeviceDetail } from '../api/types';
import { useLiveTelemetry } from '../hooks/use-live-telemetry';
import { DeviceMap } from '../map/DeviceMap';
import { finite, formatCoordinate } from '../utils/format';
import { trackOf, withLivePoints } from '../utils/series';
import { DeviceFrame } from './DeviceFrame';

const HISTORY_PAGE = 10;
/** The history reads raw positions up to a day (every point of the track), averages beyond. */
const RANGES = [
  { value: '1h', seconds: 3600, bucket: null },
  { value: '24h', seconds: 86_400, bucket: null },
  { value: '7d', seconds: 7 * 86_400, bucket: 600 },
  { value: '30d', seconds: 30 * 86_400, bucket: 3600 },
] as const;
const REFRESH_MS = 60_000;

/** Tab device.location: the map with clustering per product §9, and the location history. */
export function LocationTab({ chain, params }: PageProps) {
  return (
    <DeviceFrame chain={chain} params={params}>
      {(device) => <Location device={device} />}
    </DeviceFrame>
  );
}

function Location({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const [rangeValue, setRange] = useState<string>('24h');
  const [page, setPage] = useState(1);
  const range = RANGES.find((r) => r.value === rangeValue) ?? RANGES[0]!;
  const series = useTelemetry(device.id, range.seconds, range.bucket, REFRESH_MS);
  const live = useLiveTelemetry(device.id);
  const track = useMemo(() => trackOf(withLivePoints(series.data ?? [], live)), [series.data, live]);

  const gps = (device.state?.gps ?? null) as { lat?: unknown; lon?: unknown } | null;
  const last = track.at(-1) ?? null;
  const current = useMemo(() => {
    if (last) return last;
    const lat = finite(gps?.lat);
    const lon = finite(gps?.lon);
    return lat !== null && lon !== null ? { lat, lon, at: device.state_at ?? '' } : null;
  }, [last, gps?.lat, gps?.lon, device.state_at]);

  const newestFirst = [...track].reverse();
  // A point is known by its time (one position per instant), which also names its row.
  const shown = newestFirst
    .slice((page - 1) * HISTORY_PAGE, page * HISTORY_PAGE)
    .map((p) => ({ ...p, id: p.at }));
  const columns: Column<(typeof shown)[number]>[] = [
    { key: 'time', header: t('activity.time'), render: (p) => formatTime(p.at) },
    { key: 'lat', header: t('location.latitude'), render: (p) => formatCoordinate(p.lat, 'lat') },
    { key: 'lon', header: t('location.longitude'), render: (p) => formatCoordinate(p.lon, 'lon') },
  ];

  return (
    <Stack gap="md" data-testid="device-location">
      {!device.capabilities.has_gps && (
        <Alert color="gray" variant="light">
          {t('location.noGps')}
        </Alert>
      )}
      {series.isError && (
        <Alert color="red" role="alert">
          {failureMessage(series.error, 'get', 'location history')}
        </Alert>
      )}
      <Group justify="space-between">
        <Text size="sm" data-testid="current-position">
          {t('location.current')}:{' '}
          {current ? `${formatCoordinate(current.lat, 'lat')}, ${formatCoordinate(current.lon, 'lon')}` : '-'}
        </Text>
        <SegmentedControl
          value={range.value}
          onChange={(value) => {
            setRange(value);
            setPage(1);
          }}
          data={RANGES.map((r) => ({ value: r.value, label: t(`range.${r.value}`) }))}
        />
      </Group>
      <DeviceMap track={track} current={current} />
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={4}>{t('location.history')}</Title>
          <PagedTable
            columns={columns}
            rows={shown}
            total={newestFirst.length}
            loading={false}
            page={page}
            pageSize={HISTORY_PAGE}
            onPage={setPage}
            label={t('location.history')}
            empty={t('location.empty')}
            testId="location-history"
            minWidth={320}
            rowProps={() => ({ 'data-testid': 'location-row' })}
          />
        </Stack>
      </Paper>
    </Stack>
  );
}
