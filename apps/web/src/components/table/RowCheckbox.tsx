import type { ComponentProps } from 'react';
import classes from './cells.module.css';

type Props = Omit<ComponentProps<'input'>, 'type' | 'className'> & { indeterminate?: boolean };

/**
 * A table's checkbox (a row's, or the page's) with Mantine's look, as a plain input: a table
 * draws one per row. `indeterminate` has no attribute, only a property.
 */
export function RowCheckbox({ indeterminate = false, ...props }: Props) {
  return (
    <input
      type="checkbox"
      className={classes.checkbox}
      ref={(input) => {
        if (input) input.indeterminate = indeterminate;
      }}
      {...props}
    />
  );
}
