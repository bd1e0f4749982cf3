import Supercluster from 'supercluster';
import { MAP_CLUSTERING } from '../utils/constants';

export type MapPoint = { lat: number; lon: number; at: string };

export type MapFeature =
  | { kind: 'cluster'; id: number; lat: number; lon: number; count: number }
  | { kind: 'point'; lat: number; lon: number; at: string };

/**
 * Clusters of location points with the defaults of product §9: grid size 60 (the cluster
 * radius in pixels) and minimum cluster size 2.
 */
export function clusterIndex(points: readonly MapPoint[]): Supercluster<{ at: string }> {
  const index = new Supercluster<{ at: string }>({
    radius: MAP_CLUSTERING.gridSize,
    minPoints: MAP_CLUSTERING.minimumClusterSize,
    maxZoom: 18,
  });
  index.load(
    points.map((p) => ({
      type: 'Feature' as const,
      properties: { at: p.at },
      geometry: { type: 'Point' as const, coordinates: [p.lon, p.lat] },
    })),
  );
  return index;
}

/** What to draw for a view: [west, south, east, north] and a whole zoom level. */
export function featuresIn(
  index: Supercluster<{ at: string }>,
  bbox: [number, number, number, number],
  zoom: number,
): MapFeature[] {
  return index.getClusters(bbox, Math.round(zoom)).map((feature) => {
    const [lon, lat] = feature.geometry.coordinates as [number, number];
    const props = feature.properties as {
      cluster?: boolean;
      cluster_id?: number;
      point_count?: number;
      at?: string;
    };
    return props.cluster
      ? { kind: 'cluster', id: props.cluster_id!, lat, lon, count: props.point_count! }
      : { kind: 'point', lat, lon, at: props.at ?? '' };
  });
}

/** product §9 cluster icon sizes 53, 56, 66, 78, 90: one step per power of ten of the count. */
export function clusterIconSize(count: number): number {
  const sizes = MAP_CLUSTERING.iconSizes;
  const step = Math.min(Math.max(String(Math.max(1, Math.floor(count))).length - 1, 0), sizes.length - 1);
  return sizes[step]!;
}
