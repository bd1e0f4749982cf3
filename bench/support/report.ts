import os from 'node:os';

/** The p-th percentile (0..100) of samples, nearest-rank method. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Milliseconds with a precision that suits their size. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : value.toFixed(0);
}

/** A whole number with thousands separators (`12 345`). */
export function count(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/**
 * Prints a Markdown table (readable in a terminal, pasteable into docs/performance.md):
 * the first `textColumns` columns left-aligned, figures right-aligned.
 */
export function printTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  textColumns = 1,
): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const left = (i: number) => i < textColumns;
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => (left(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  console.log(line(headers));
  console.log(`| ${widths.map((w, i) => (left(i) ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}

/** What the figures were measured on, printed at the top of every benchmark. */
export function printMachine(title: string): void {
  const cpus = os.cpus();
  console.log(`# ${title}`);
  console.log(
    `${new Date().toISOString()} · ${cpus[0]?.model.trim() ?? 'unknown CPU'} × ${os.availableParallelism()} · ` +
      `${Math.round(os.totalmem() / 2 ** 30)} GiB RAM · Node ${process.version} · ${os.type()} ${os.release()}`,
  );
  console.log(`command: ${process.argv.slice(1).join(' ')}`);
  console.log('');
}

/** 'met' or 'MISSED' for a target, for the summary lines. */
export const verdict = (met: boolean) => (met ? 'met' : 'MISSED');
