import { ActionIcon, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * An editable list of small rows (branded models, branded series): each row's inputs, a
 * remove button per row, and an add button under them.
 */
export function PairRows<T>({
  rows,
  onChange,
  blank,
  renderRow,
  addLabel,
  removeLabel,
  empty,
  error,
  testId,
}: {
  rows: T[];
  onChange(rows: T[]): void;
  blank: T;
  renderRow(row: T, index: number, change: (row: T) => void): ReactNode;
  addLabel: string;
  removeLabel: (index: number) => string;
  empty: string;
  error?: string;
  testId: string;
}) {
  return (
    <Stack gap="xs" data-testid={testId}>
      {rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
      {rows.map((row, index) => (
        // Rows have no identity of their own; their place is their key while editing.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <Group key={index} gap="xs" align="flex-start" wrap="nowrap" data-testid={`${testId}-row`}>
          {renderRow(row, index, (next) => onChange(rows.map((r, i) => (i === index ? next : r))))}
          <ActionIcon
            variant="subtle"
            color="red"
            mt={4}
            aria-label={removeLabel(index)}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Group>
      ))}
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
      <Group>
        <Button
          variant="default"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => onChange([...rows, blank])}
        >
          {addLabel}
        </Button>
      </Group>
    </Stack>
  );
}
