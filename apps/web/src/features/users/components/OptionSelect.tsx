import { Select } from '@mantine/core';
import { Controller, type UseFormReturn } from 'react-hook-form';
import type { FormValues } from '#src/lib/forms/types';

type Props = {
  form: UseFormReturn<FormValues>;
  name: string;
  label: string;
  data: readonly { value: string; label: string }[];
  placeholder?: string;
  description?: string;
  disabled?: boolean;
  loading?: boolean;
  searchable?: boolean;
  onSearchChange?(value: string): void;
  autoFocus?: boolean;
  nothingFound?: string;
};

/**
 * A required select bound to the form whose option labels are data (company names, role
 * titles), shown as they are rather than as translation keys. Its error clears when the
 * value changes (product §5).
 */
export function OptionSelect({
  form,
  name,
  label,
  data,
  loading,
  onSearchChange,
  autoFocus,
  nothingFound,
  ...rest
}: Props) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <Select
          {...rest}
          name={name}
          label={label}
          required
          data={data as { value: string; label: string }[]}
          value={(field.value as string | undefined) ?? null}
          onChange={(value) => {
            field.onChange(value ?? undefined);
            if (fieldState.error) form.clearErrors(name);
          }}
          error={fieldState.error?.message}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          {...(onSearchChange ? { onSearchChange } : {})}
          {...(nothingFound ? { nothingFoundMessage: nothingFound } : {})}
          {...(autoFocus ? { 'data-autofocus': true } : {})}
          rightSectionPointerEvents={loading ? 'none' : undefined}
        />
      )}
    />
  );
}
