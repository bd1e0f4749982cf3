import { SEARCH_DEBOUNCE_MS } from '@fleetgate/shared/constants';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useRef, useState } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FormValues } from '#src/lib/forms/types';
import { type DeviceOption, useDeviceOptions } from '../api/devices';
import { deviceOptions } from '../utils/move-resources';

const NONE: readonly DeviceOption[] = [];

type Props = {
  form: UseFormReturn<FormValues>;
  name: string;
  label: string;
  description?: string;
  /** Devices always offered (the one the dialog was opened from), whatever the search finds. */
  known?: readonly DeviceOption[];
  /** A device never offered (the target is never the source). */
  exclude?: number | null;
  autoFocus?: boolean;
};

/**
 * The devices selector of a form: devices in reach, searched on the server by name, serial,
 * MAC or IMEI (product §7 selector lists: limit 100, a fields filter; §9 500 ms debounce).
 * A required select bound to the form; its error clears when the value changes (product §5).
 */
export function DeviceSelect({
  form,
  name,
  label,
  description,
  known = NONE,
  exclude = null,
  autoFocus,
}: Props) {
  const { t } = useTranslation('devices');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const found = useDeviceOptions(q);
  // Every device seen stays nameable: the chosen one keeps its label when a new search misses it.
  const seen = useRef(new Map<number, DeviceOption>());
  for (const device of found.data ?? []) seen.current.set(device.id, device);
  const selected = form.watch(name) as string | number | undefined;
  const chosen = seen.current.get(Number(selected));
  const data = useMemo(
    () => deviceOptions([known, chosen ? [chosen] : [], found.data ?? []], exclude),
    [known, chosen, found.data, exclude],
  );
  const selectedLabel = data.find((option) => option.value === String(selected ?? ''))?.label;
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <Select
          name={name}
          label={label}
          description={description}
          placeholder={t('move.devicePlaceholder')}
          required
          searchable
          data={data}
          value={field.value === undefined || field.value === null ? null : String(field.value)}
          onChange={(value) => {
            field.onChange(value ?? undefined);
            if (fieldState.error) form.clearErrors(name);
          }}
          // While a device is chosen the box shows its label: search only what the user types beyond it.
          onSearchChange={(value) => setSearch(value === selectedLabel ? '' : value)}
          // The server searched MAC and IMEI too, which the labels do not show: keep all it found.
          filter={({ options }) => options}
          error={fieldState.error?.message}
          allowDeselect={false}
          nothingFoundMessage={found.isFetching ? t('move.searching') : t('move.noDevices')}
          comboboxProps={{ withinPortal: true }}
          {...(autoFocus ? { 'data-autofocus': true } : {})}
          data-testid={`device-select-${name}`}
        />
      )}
    />
  );
}
