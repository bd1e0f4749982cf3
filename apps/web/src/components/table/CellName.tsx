import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';

type Props = {
  name: string;
  /** Where the name links to, if anywhere. */
  to?: string;
  /** Lines the name may take before it is cut: 1 in tables whose rows stay one line high. */
  lines?: 1 | 2;
  /** The widest the name may be, so that one long name does not take the table's width. */
  maw?: string;
  testId?: string;
};

/**
 * A name in a table cell (a company, a device): it wraps (inside a word only when the
 * word alone is wider than `maw`) up to `lines` lines, then is cut with an ellipsis;
 * hovering shows the whole name.
 */
export function CellName({ name, to, lines = 2, maw = '22rem', testId }: Props) {
  const fit = {
    size: 'sm',
    maw,
    title: name,
    // break-word, not anywhere: a short name keeps its column wide enough to stay whole.
    style: { overflowWrap: 'break-word' as const },
    'data-testid': testId,
    // An inline link cannot show an ellipsis: a one-line name is a block.
    ...(lines === 1 ? { truncate: 'end' as const, display: 'block' } : { lineClamp: 2 }),
  };
  return to ? (
    <Anchor component={Link} to={to} {...fit}>
      {name}
    </Anchor>
  ) : (
    <Text {...fit}>{name}</Text>
  );
}
