import type { DeviceStatusChange } from '@fleetgate/shared/devices/events';
import { deviceChannels } from '@fleetgate/shared/devices/events';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { ChannelHub } from '#src/lib/socket/channel-hub';
import { channelHub } from '#src/lib/socket/socket';
import { deviceKeys } from '../api/devices';
import type { DeviceDetail, DeviceListPage } from '../api/types';

/** Writes a status change into every cached list page and the device's detail: no request. */
export function applyStatusChange(client: QueryClient, change: DeviceStatusChange): void {
  const patch = <T extends { status: number; last_seen_at: string | null; model?: string | null }>(
    row: T,
  ): T => ({
    ...row,
    status: change.status,
    last_seen_at: change.last_seen_at ?? row.last_seen_at,
    ...(change.model !== undefined ? { model: change.model } : {}),
    ...(change.firmware !== undefined ? { firmware: change.firmware } : {}),
  });
  client.setQueriesData<DeviceListPage>({ queryKey: deviceKeys.lists() }, (page) =>
    page?.rows.some((row) => row.id === change.device_id)
      ? { ...page, rows: page.rows.map((row) => (row.id === change.device_id ? patch(row) : row)) }
      : page,
  );
  client.setQueryData<DeviceDetail>(deviceKeys.detail(change.device_id), (device) =>
    device ? patch(device) : device,
  );
}

/**
 * Live status of the devices table: listens to the devices channel of each company whose
 * devices are on the page (plus the user's own), so a badge changes without a reload.
 * Channels are joined and left as the page's companies change.
 */
export function useCompanyStatusChannels(companyIds: readonly number[], hub: ChannelHub = channelHub): void {
  const client = useQueryClient();
  const key = [...new Set(companyIds)].sort((a, b) => a - b).join(',');
  const clientRef = useRef(client);
  clientRef.current = client;
  useEffect(() => {
    if (!key) return;
    const stops = key
      .split(',')
      .map(Number)
      .map((companyId) =>
        hub.listen(deviceChannels.company(companyId), 'DeviceStatusChanged', (change) =>
          applyStatusChange(clientRef.current, change),
        ),
      );
    return () => {
      for (const stop of stops) stop();
    };
  }, [key, hub]);
}
