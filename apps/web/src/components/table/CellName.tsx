import classes from './cells.module.css';

type Props = {
  name: string;
  /** Where the name links to, if anywhere. */
  to?: string;
  /** Lines the name may take before it is cut: 1 in tables whose rows stay one line high. */
  lines?: 1 | 2;
  /**
   * The widest the name may be, so that one long name does not take the table's width: one
   * of a few widths, each a rule of cells.module.css (an inline style on every row's name
   * kept the browser from sharing one computed style between them).
   */
  maw?: '10rem' | '14rem' | '16rem' | '20rem' | '22rem';
  testId?: string;
};

/**
 * A name in a table cell (a company, a device): it wraps (inside a word only when the
 * word alone is wider than `maw`) up to `lines` lines, then is cut with an ellipsis;
 * hovering shows the whole name. A plain element, its link a plain anchor that the console's
 * one listener follows (lib/routing/route-links.ts): tables draw many of them.
 */
export function CellName({ name, to, lines = 2, maw = '22rem', testId }: Props) {
  const fit = {
    className: classes.name,
    'data-maw': maw,
    title: name,
    'data-lines': lines,
    'data-testid': testId,
  };
  return to ? (
    <a href={to} data-route-link {...fit}>
      {name}
    </a>
  ) : (
    <span {...fit}>{name}</span>
  );
}
