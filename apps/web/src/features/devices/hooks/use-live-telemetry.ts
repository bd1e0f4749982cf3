import { deviceChannels } from '@fleetgate/shared/devices/events';
import { useState } from 'react';
import { useChannel } from '#src/lib/socket/useChannel';
import type { ChartPoint } from '../api/types';
import { pushToPoint } from '../utils/series';

/** Most live points kept between two reads of the series. */
const MAX_LIVE = 2000;

/**
 * Telemetry pushed for one device while the page is open (`DeviceTelemetry` on
 * private-device.{id}): the charts append these points between reads of the series.
 */
export function useLiveTelemetry(deviceId: number): ChartPoint[] {
  const [points, setPoints] = useState<ChartPoint[]>([]);
  useChannel(deviceChannels.device(deviceId), 'DeviceTelemetry', (push) => {
    if (push.device_id !== deviceId) return;
    setPoints((current) => [...current.slice(-(MAX_LIVE - 1)), pushToPoint(push)]);
  });
  return points;
}
