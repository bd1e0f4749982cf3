import { VisuallyHidden } from '@mantine/core';
import { useId } from 'react';

export type Bar = { key: string; label: string; value: number; color: string };

const WIDTH = 600;
const LABEL_WIDTH = 170;
const VALUE_WIDTH = 56;
const ROW = 30;
const BAR = 18;

/** Cuts a label that would run into the bars. */
function clip(label: string, max = 24): string {
  return label.length > max ? `${label.slice(0, max - 1)}…` : label;
}

/**
 * Horizontal bars in plain SVG (no chart library): one row per item, scaled to the
 * largest value. Screen readers get the same figures as a table.
 */
export function BarChart({ title, bars, testId }: { title: string; bars: readonly Bar[]; testId: string }) {
  const id = useId();
  const max = Math.max(1, ...bars.map((b) => b.value));
  const span = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const height = Math.max(ROW, bars.length * ROW);
  return (
    <figure style={{ margin: 0 }} data-testid={testId}>
      <svg
        viewBox={`0 0 ${WIDTH} ${height}`}
        width="100%"
        role="img"
        aria-labelledby={`${id}-title`}
        style={{ maxWidth: WIDTH, display: 'block' }}
      >
        <title id={`${id}-title`}>{title}</title>
        {bars.map((bar, index) => {
          const y = index * ROW;
          const width = bar.value === 0 ? 0 : Math.max(2, (bar.value / max) * span);
          return (
            <g key={bar.key} data-testid="chart-bar" data-key={bar.key} data-value={bar.value}>
              <text
                x={LABEL_WIDTH - 8}
                y={y + ROW / 2}
                textAnchor="end"
                dominantBaseline="middle"
                fontSize={13}
                fill="currentColor"
              >
                {clip(bar.label)}
              </text>
              <rect
                x={LABEL_WIDTH}
                y={y + (ROW - BAR) / 2}
                width={span}
                height={BAR}
                rx={3}
                fill="currentColor"
                opacity={0.06}
              />
              <rect
                x={LABEL_WIDTH}
                y={y + (ROW - BAR) / 2}
                width={width}
                height={BAR}
                rx={3}
                fill={bar.color}
              />
              <text
                x={LABEL_WIDTH + width + 6}
                y={y + ROW / 2}
                dominantBaseline="middle"
                fontSize={13}
                fill="currentColor"
              >
                {bar.value}
              </text>
            </g>
          );
        })}
      </svg>
      <VisuallyHidden>
        <table>
          <caption>{title}</caption>
          <tbody>
            {bars.map((bar) => (
              <tr key={bar.key}>
                <th scope="row">{bar.label}</th>
                <td>{bar.value}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </VisuallyHidden>
    </figure>
  );
}
