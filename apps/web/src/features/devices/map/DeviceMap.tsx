import { Box, Text } from '@mantine/core';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '#src/lib/time';
import { MAP_TILE_ATTRIBUTION, MAP_TILE_URL } from '../utils/constants';
import { formatCoordinate } from '../utils/format';
import { clusterIconSize, clusterIndex, featuresIn, type MapPoint } from './clusters';

type Props = {
  /** Location history, oldest first. */
  track: readonly MapPoint[];
  /** The device's last position. */
  current: MapPoint | null;
  height?: number;
};

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function clusterIcon(count: number): L.DivIcon {
  const size = clusterIconSize(count);
  return L.divIcon({
    className: 'device-cluster',
    // The count sits low in the circle, so the position pin standing on it never hides it.
    html: `<div style="box-sizing:border-box;width:${size}px;height:${size}px;border-radius:50%;background:rgba(28,126,214,.35);border:3px solid rgba(28,126,214,.8);display:flex;align-items:flex-end;justify-content:center;padding-bottom:${Math.round(size / 8)}px;font-weight:700;color:#0b3d6e">${count}</div>`,
    iconSize: [size, size],
    iconAnchor: [size / 2, size / 2],
  });
}

/** A pin standing on the position, so a cluster under it keeps its count readable. */
const currentIcon = L.divIcon({
  className: 'device-marker',
  html: '<svg width="26" height="36" viewBox="0 0 26 36"><path d="M13 35C13 35 25 21 25 13A12 12 0 0 0 1 13C1 21 13 35 13 35Z" fill="#e03131" stroke="#fff" stroke-width="2"/><circle cx="13" cy="13" r="4.5" fill="#fff"/></svg>',
  iconSize: [26, 36],
  iconAnchor: [13, 35],
});

/**
 * The device's location: last position, track, and the history clustered
 * with the product §9 defaults. Tiles come from a configurable server; a tile that fails to
 * load leaves a blank square and a note, never a broken page.
 */
export function DeviceMap({ track, current, height = 420 }: Props) {
  const { t } = useTranslation('devices');
  const box = useRef<HTMLDivElement>(null);
  const map = useRef<L.Map | null>(null);
  const layers = useRef<{ track: L.Polyline; points: L.LayerGroup; current: L.Marker | null } | null>(null);
  const [tilesFailed, setTilesFailed] = useState(false);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const made = L.map(element, { zoomControl: true, attributionControl: true, preferCanvas: false });
    L.tileLayer(MAP_TILE_URL, { attribution: MAP_TILE_ATTRIBUTION, maxZoom: 19 })
      .on('tileerror', () => setTilesFailed(true))
      .addTo(made);
    layers.current = {
      track: L.polyline([], { color: '#1c7ed6', weight: 3, className: 'device-track' }).addTo(made),
      points: L.layerGroup().addTo(made),
      current: null,
    };
    made.setView([20, 0], 2);
    map.current = made;
    return () => {
      made.remove();
      map.current = null;
      layers.current = null;
    };
  }, []);

  useEffect(() => {
    const made = map.current;
    const drawn = layers.current;
    if (!made || !drawn) return;
    drawn.track.setLatLngs(track.map((p) => [p.lat, p.lon] as L.LatLngTuple));
    drawn.current?.remove();
    drawn.current = current
      ? L.marker([current.lat, current.lon], {
          icon: currentIcon,
          title: t('location.current'),
          zIndexOffset: 1000,
        })
          .bindPopup(
            `${escapeHtml(formatCoordinate(current.lat, 'lat'))}, ${escapeHtml(formatCoordinate(current.lon, 'lon'))}<br>${escapeHtml(formatTime(current.at))}`,
          )
          .addTo(made)
      : null;

    const index = clusterIndex(track);
    const draw = () => {
      const bounds = made.getBounds();
      drawn.points.clearLayers();
      for (const feature of featuresIn(
        index,
        [bounds.getWest(), bounds.getSouth(), bounds.getEast(), bounds.getNorth()],
        made.getZoom(),
      )) {
        if (feature.kind === 'cluster') {
          L.marker([feature.lat, feature.lon], { icon: clusterIcon(feature.count) })
            .on('click', () => made.setView([feature.lat, feature.lon], Math.min(made.getZoom() + 2, 18)))
            .addTo(drawn.points);
        } else {
          L.circleMarker([feature.lat, feature.lon], {
            radius: 4,
            color: '#1c7ed6',
            className: 'history-point',
          })
            .bindTooltip(formatTime(feature.at))
            .addTo(drawn.points);
        }
      }
    };
    made.on('moveend zoomend', draw);
    const all = [
      ...track.map((p) => [p.lat, p.lon] as L.LatLngTuple),
      ...(current ? [[current.lat, current.lon] as L.LatLngTuple] : []),
    ];
    if (all.length > 0) made.fitBounds(L.latLngBounds(all).pad(0.2), { maxZoom: 15, animate: false });
    draw();
    return () => {
      made.off('moveend zoomend', draw);
    };
  }, [track, current, t]);

  return (
    <Box pos="relative">
      <div
        ref={box}
        data-testid="device-map"
        data-track-points={track.length}
        style={{ height, width: '100%', borderRadius: 8, zIndex: 0 }}
      />
      {tilesFailed && (
        <Text
          size="xs"
          data-testid="map-tiles-failed"
          pos="absolute"
          left={8}
          bottom={8}
          px={6}
          py={2}
          bg="var(--mantine-color-body)"
          style={{ zIndex: 1000, borderRadius: 4, opacity: 0.9 }}
        >
          {t('location.tilesFailed')}
        </Text>
      )}
    </Box>
  );
}
