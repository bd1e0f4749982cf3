import { Paper, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { currentTimezone, formatTime } from '#src/lib/time';
import { DASH } from '../utils/format';
import type { ChartData } from '../utils/series';

export type ChartSeries = {
  label: string;
  color: string;
  /** How a value reads in the legend (units of product §9). */
  format(value: number): string;
  /** How an axis tick reads; by default a number with up to two decimals and the legend's unit. */
  axis?(value: number): string;
};

const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;
const TIME_INCREMENTS = [
  1,
  2,
  5,
  10,
  15,
  30,
  MIN,
  2 * MIN,
  5 * MIN,
  10 * MIN,
  15 * MIN,
  30 * MIN,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  6 * HOUR,
  12 * HOUR,
  DAY,
  2 * DAY,
  7 * DAY,
  14 * DAY,
  30 * DAY,
];

const DAY_INCREMENTS = [DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY];

/** Ticks of the time axis in the user's zone: times within a day, dates beyond (product §9 format parts). */
function timeTicks(splits: number[], zone: string): string[] {
  const span = (splits.at(-1) ?? 0) - (splits[0] ?? 0);
  const pattern =
    span < 120 ? 'HH:mm:ss' : span < 86_400 ? 'HH:mm' : span < 7 * 86_400 ? 'MM-DD HH:mm' : 'YYYY-MM-DD';
  return splits.map((s) =>
    dayjs(s * 1000)
      .tz(zone)
      .format(pattern),
  );
}

/** A tick value with up to two decimals and the unit the legend's format appends. */
function tickOf(series: ChartSeries | undefined, value: number): string {
  if (!series) return String(value);
  if (series.axis) return series.axis(value);
  const unit = series.format(1).replace(/^[\d.\s-]+/, '');
  return `${Number(value.toFixed(2))}${unit ? ` ${unit}` : ''}`;
}

type Props = {
  title: string;
  data: ChartData;
  series: readonly ChartSeries[];
  /** Bars instead of lines (data usage per bucket). */
  bars?: boolean;
  /** One point per calendar day: ticks and legend show the date only. */
  daily?: boolean;
  height?: number;
  testId?: string;
};

function barRange(u: uPlot, min: number | null, max: number | null): [number, number] {
  const xs = u.data[0];
  const step = xs.length > 1 ? (xs[xs.length - 1]! - xs[0]!) / (xs.length - 1) : 60;
  return [(min ?? 0) - step / 2, (max ?? 0) + step / 2];
}

/** Daily bars show the last DAILY_SLOTS days, whatever days have data. */
const DAILY_SLOTS = 30;
function dailyRange(u: uPlot): [number, number] {
  const last = u.data[0].at(-1) ?? Math.floor(Date.now() / 1000);
  return [last - (DAILY_SLOTS - 0.5) * DAY, last + DAY / 2];
}

function options(props: Props, width: number): uPlot.Options {
  const zone = currentTimezone();
  return {
    width,
    height: props.height ?? 220,
    // product §9: times in the user's zone, YYYY-MM-DD HH:mm:ss.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), zone),
    cursor: { drag: { x: true, y: false } },
    legend: { live: true },
    // Bars keep half a step free at both ends, so the first and last bar are whole.
    scales: {
      x: props.daily
        ? { time: true, range: dailyRange }
        : props.bars
          ? { time: true, range: barRange }
          : { time: true },
    },
    axes: [
      // Whole seconds and up: a tick never repeats the previous one's label.
      props.daily
        ? {
            values: (_u, splits) =>
              splits.map((v) =>
                dayjs(v * 1000)
                  .tz(zone)
                  .format('YYYY-MM-DD'),
              ),
            incrs: DAY_INCREMENTS,
            space: 90,
          }
        : { values: (_u, splits) => timeTicks(splits, zone), incrs: TIME_INCREMENTS },
      { values: (_u, splits) => splits.map((v) => (v === null ? '' : tickOf(props.series[0], v))), size: 96 },
    ],
    series: [
      {
        label: i18next.t('devices:chart.time'),
        value: (_u, v) =>
          v === null
            ? DASH
            : props.daily
              ? dayjs(v * 1000)
                  .tz(zone)
                  .format('YYYY-MM-DD')
              : formatTime(v * 1000),
      },
      ...props.series.map((s) => ({
        label: s.label,
        stroke: s.color,
        width: 2,
        fill: props.bars ? `${s.color}99` : undefined,
        spanGaps: false,
        value: (_u: uPlot, v: number | null) => (v === null || v === undefined ? DASH : s.format(v)),
        ...(props.bars
          ? { paths: uPlot.paths.bars?.({ size: [0.6, props.daily ? 22 : 60] }), points: { show: false } }
          : {}),
      })),
    ],
  };
}

/**
 * A time series chart (uPlot, ARCHITECTURE §3). The plot is made once per set of series
 * and fed new data in place, so live points append without a redraw of the page.
 */
export function TimeChart(props: Props) {
  const { title, data, series, testId } = props;
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const shape = `${series.map((s) => s.label).join('|')}|${props.bars ? 'bars' : 'lines'}`;

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new plot only for a new set of series.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let made: uPlot | null = null;
    try {
      made = new uPlot(options(latest.current, element.clientWidth || 600), latest.current.data, element);
    } catch {
      // No canvas (a test DOM): the chart stays empty, the page works.
      return;
    }
    plot.current = made;
    const observer = new ResizeObserver(() => {
      if (element.clientWidth > 0)
        made?.setSize({ width: element.clientWidth, height: latest.current.height ?? 220 });
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
      made?.destroy();
      plot.current = null;
    };
  }, [shape]);

  useEffect(() => {
    plot.current?.setData(data);
  }, [data]);

  const points = data[0].length;
  return (
    <Paper withBorder p="sm" data-testid={testId} data-points={points}>
      <Stack gap={4}>
        <Text fw={600} size="sm">
          {title}
        </Text>
        <div ref={box} style={{ width: '100%', minHeight: props.height ?? 220 }} />
      </Stack>
    </Paper>
  );
}
