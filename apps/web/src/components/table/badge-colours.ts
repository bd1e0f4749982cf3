import type { CSSProperties } from 'react';

/** A plain badge's colours (cells.module.css `.badge`): what fills it and its text's. */
export function badgeColours(fill: string, text: string): CSSProperties {
  return { '--badge-fill': fill, '--badge-text': text } as CSSProperties;
}
