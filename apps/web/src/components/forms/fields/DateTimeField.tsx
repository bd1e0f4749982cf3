import { TextInput } from '@mantine/core';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';

type Props = {
  name: string;
  label: ReactNode;
  description?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  error?: ReactNode;
  /** 'datetime' keeps an ISO instant (UTC); 'date' keeps `YYYY-MM-DD`. */
  kind: 'date' | 'datetime';
  value: string | null;
  onChange(value: string | null): void;
  'data-autofocus'?: boolean;
};

const LOCAL = 'YYYY-MM-DDTHH:mm';

/** A date, or a date and time shown in the user's zone and kept as an ISO instant. */
export function DateTimeField({ kind, value, onChange, ...props }: Props) {
  const shown = !value ? '' : kind === 'date' ? value : dayjs(value).format(LOCAL);
  return (
    <TextInput
      {...props}
      type={kind === 'date' ? 'date' : 'datetime-local'}
      value={shown}
      onChange={(event) => {
        const text = event.currentTarget.value;
        if (!text) return onChange(null);
        if (kind === 'date') return onChange(text);
        const parsed = dayjs(text);
        onChange(parsed.isValid() ? parsed.toISOString() : null);
      }}
    />
  );
}
