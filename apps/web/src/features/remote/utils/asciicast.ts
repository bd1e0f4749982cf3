/** A terminal recording as asciicast v2 carries it: the window, then output and resize events. */
export type Cast = {
  width: number;
  height: number;
  events: { at: number; kind: 'o' | 'r'; data: string }[];
};

/** Reads an asciicast v2 file; lines that are not events of ours are skipped. */
export function parseCast(text: string): Cast {
  const [first, ...lines] = text.split('\n').filter((line) => line.trim() !== '');
  const header = JSON.parse(first ?? '{}') as { version?: number; width?: number; height?: number };
  if (header.version !== 2) throw new Error('Not an asciicast v2 recording');
  const events: Cast['events'] = [];
  for (const line of lines) {
    const event = JSON.parse(line) as [number, string, string];
    if (
      (event[1] === 'o' || event[1] === 'r') &&
      typeof event[0] === 'number' &&
      typeof event[2] === 'string'
    )
      events.push({ at: event[0], kind: event[1], data: event[2] });
  }
  return { width: header.width ?? 80, height: header.height ?? 24, events };
}

/** The recording's length in seconds. */
export const castLength = (cast: Cast) => cast.events.at(-1)?.at ?? 0;
