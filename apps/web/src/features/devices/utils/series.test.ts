import { describe, expect, it } from 'vitest';
import type { ChartPoint } from '../api/types';
import { clusterIconSize, clusterIndex, featuresIn } from '../map/clusters';
import { counterDeltas, pushToPoint, toChartData, trackOf, withLivePoints } from './series';

const point = (at: string, values: Partial<ChartPoint> = {}): ChartPoint => ({
  at,
  signal: null,
  temperature: null,
  rx_bytes: null,
  tx_bytes: null,
  lat: null,
  lon: null,
  uptime: null,
  ...values,
});

describe('chart series of the device page', () => {
  it('orders points by time and turns invalid values into gaps', () => {
    const data = toChartData(
      [point('2026-01-01T00:00:10Z', { signal: -70 }), point('2026-01-01T00:00:00Z', { signal: Number.NaN })],
      ['signal'],
    );
    expect(data).toEqual([
      [1767225600, 1767225610],
      [null, -70],
    ]);
  });

  it('appends live points newer than the last point read, and only those', () => {
    const fetched = [point('2026-01-01T00:00:00.000Z'), point('2026-01-01T00:01:00.000Z')];
    const live = [
      pushToPoint({ device_id: 1, at: '2026-01-01T00:00:30.000Z', signal: -80 }),
      pushToPoint({ device_id: 1, at: '2026-01-01T00:02:00.000Z', signal: -75 }),
    ];
    const merged = withLivePoints(fetched, live);
    expect(merged.map((p) => p.at)).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:01:00.000Z',
      '2026-01-01T00:02:00.000Z',
    ]);
    expect(merged.at(-1)!.signal).toBe(-75);
  });

  it('turns byte counters into data used per interval, counting from zero after a reset', () => {
    expect(counterDeltas([100, 300, 50, 150, null, 170])).toEqual([null, 200, 50, 100, null, 20]);
  });

  it('keeps only valid positions for the track', () => {
    const track = trackOf([
      point('2026-01-01T00:00:02Z', { lat: 54.1, lon: 25.2 }),
      point('2026-01-01T00:00:01Z', { lat: 54, lon: 25 }),
      point('2026-01-01T00:00:03Z', { lat: 95, lon: 25 }),
      point('2026-01-01T00:00:04Z', { lat: 0, lon: 0 }),
      point('2026-01-01T00:00:05Z', { lat: null, lon: 25 }),
    ]);
    expect(track.map((p) => [p.lat, p.lon])).toEqual([
      [54, 25],
      [54.1, 25.2],
    ]);
  });
});

describe('map clustering (product §9 defaults)', () => {
  it('sizes cluster icons 53, 56, 66, 78, 90 by the count', () => {
    expect([2, 9, 10, 99, 100, 1000, 10_000, 1e6].map(clusterIconSize)).toEqual([
      53, 53, 56, 56, 66, 78, 90, 90,
    ]);
  });

  it('clusters points within the grid size and leaves a lone point alone', () => {
    const near = Array.from({ length: 5 }, (_, i) => ({ lat: 54.68 + i * 1e-4, lon: 25.27, at: `t${i}` }));
    const far = { lat: 35.67, lon: 139.65, at: 'tokyo' };
    const features = featuresIn(clusterIndex([...near, far]), [-180, -85, 180, 85], 5);
    const clusters = features.filter((f) => f.kind === 'cluster');
    expect(clusters).toHaveLength(1);
    expect(clusters[0]).toMatchObject({ count: 5 });
    const lone = features.filter((f) => f.kind === 'point');
    expect(lone).toHaveLength(1);
    expect(lone[0]).toMatchObject({
      at: 'tokyo',
      lat: expect.closeTo(35.67, 5),
      lon: expect.closeTo(139.65, 5),
    });
    // Zoomed far in, the points separate.
    expect(
      featuresIn(clusterIndex(near), [25.26, 54.67, 25.28, 54.69], 18).every((f) => f.kind === 'point'),
    ).toBe(true);
  });
});
