import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ListState } from './use-list-state';

/** The search box of a paged table: what it shows and what is typed live in useListState. */
export function ListSearch({
  list,
  label,
  placeholder = label,
  testId,
  w,
  maw,
}: {
  list: Pick<ListState, 'input' | 'setInput'>;
  /** The box's accessible name. */
  label: string;
  placeholder?: string;
  testId?: string;
  w?: number;
  maw?: number;
}) {
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={list.input}
      onChange={(event) => list.setInput(event.currentTarget.value)}
      w={w}
      maw={maw}
      data-testid={testId}
    />
  );
}
