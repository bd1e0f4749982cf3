import { Alert, Group, Pagination, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '../../../app/router/RouteScreen';
import { EmptyRow } from '../../../components/table/EmptyRow';
import { failureMessage } from '../../../lib/http/results';
import { formatTime } from '../../../lib/time';
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
  const shown = newestFirst.slice((page - 1) * HISTORY_PAGE, page * HISTORY_PAGE);

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
          <Table verticalSpacing={4} data-testid="location-history">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.time')}</Table.Th>
                <Table.Th>{t('location.latitude')}</Table.Th>
                <Table.Th>{t('location.longitude')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.length === 0 && <EmptyRow colSpan={3}>{t('location.empty')}</EmptyRow>}
              {shown.map((p) => (
                <Table.Tr key={p.at} data-testid="location-row">
                  <Table.Td>{formatTime(p.at)}</Table.Td>
                  <Table.Td>{formatCoordinate(p.lat, 'lat')}</Table.Td>
                  <Table.Td>{formatCoordinate(p.lon, 'lon')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {newestFirst.length > HISTORY_PAGE && (
            <Pagination
              total={Math.ceil(newestFirst.length / HISTORY_PAGE)}
              value={page}
              onChange={setPage}
              size="sm"
            />
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
