import { firmwareFilterOf } from '@fleetgate/shared/devices/firmware';
import { Button, Group, MultiSelect, TagsInput, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilterOff, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCompanyOptions, useModelOptions, useTagOptions } from '../api/devices';
import type { DeviceFilters } from '../api/types';
import { STATUS_FILTER_VALUES } from '../utils/constants';
import { statusLook } from '../utils/status';

/** spec §9: input debounce 500 ms. */
const SEARCH_DEBOUNCE_MS = 500;

type Props = {
  filters: DeviceFilters;
  onChange(next: Partial<DeviceFilters>): void;
  /** The company filter is for users who see companies (spec §6 view_companies). */
  companies: boolean;
  /** The tag filter is for users who see tags (view_tags). */
  tags: boolean;
};

/** Search on name, serial, MAC and IMEI, and the filters of issue 5 §7 (status, model, company, firmware). */
export function DeviceFiltersBar({ filters, onChange, companies, tags }: Props) {
  const { t } = useTranslation('devices');
  const models = useModelOptions();
  const companyOptions = useCompanyOptions(companies);
  const tagOptions = useTagOptions(tags);
  const [text, setText] = useState(filters.q);
  const [firmwareError, setFirmwareError] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);

  // Typing reaches the list after a pause; a search set from outside (global search) reaches the box.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced text is sent.
  useEffect(() => {
    if (debounced !== filters.q) onChange({ q: debounced });
  }, [debounced]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the URL, not the typing.
  useEffect(() => {
    if (filters.q !== debounced) setText(filters.q);
  }, [filters.q]);

  const active =
    filters.q !== '' ||
    filters.status.length +
      filters.model.length +
      filters.company_id.length +
      filters.firmware.length +
      filters.tag_id.length >
      0;

  return (
    <Group gap="sm" align="flex-end" wrap="wrap" data-testid="device-filters">
      <TextInput
        label={t('filter.search')}
        placeholder={t('filter.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        w={200}
        data-testid="device-search"
      />
      <MultiSelect
        label={t('filter.status')}
        placeholder={filters.status.length ? undefined : t('filter.any')}
        data={STATUS_FILTER_VALUES.map((s) => ({
          value: String(s),
          label: t(`status.${statusLook(s).key}`),
        }))}
        value={filters.status.map(String)}
        onChange={(values) => onChange({ status: values.map(Number) })}
        clearable
        w={150}
        data-testid="filter-status"
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label={t('filter.model')}
        placeholder={filters.model.length ? undefined : t('filter.any')}
        data={(models.data ?? [])
          .filter((m): m is { model: string; count: number } => Boolean(m.model))
          .map((m) => ({ value: m.model, label: `${m.model} (${m.count})` }))}
        value={filters.model}
        onChange={(values) => onChange({ model: values })}
        searchable
        clearable
        w={150}
        data-testid="filter-model"
        comboboxProps={{ withinPortal: true }}
      />
      {companies && (
        <MultiSelect
          label={t('filter.company')}
          placeholder={filters.company_id.length ? undefined : t('filter.any')}
          data={(companyOptions.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={filters.company_id.map(String)}
          onChange={(values) => onChange({ company_id: values.map(Number) })}
          searchable
          clearable
          w={150}
          data-testid="filter-company"
          comboboxProps={{ withinPortal: true }}
        />
      )}
      {tags && (
        <MultiSelect
          label={t('filter.tag')}
          placeholder={filters.tag_id.length ? undefined : t('filter.any')}
          data={(tagOptions.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.name }))}
          value={filters.tag_id.map(String)}
          onChange={(values) => onChange({ tag_id: values.map(Number) })}
          searchable
          clearable
          w={150}
          data-testid="filter-tag"
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <TagsInput
        label={t('filter.firmware')}
        placeholder={filters.firmware.length ? undefined : t('filter.firmwarePlaceholder')}
        value={filters.firmware}
        onChange={(values) => {
          // Only versions (07.06 finds 07.06.x) and whole firmware names become filters.
          const valid = values.filter((value) => firmwareFilterOf(value) !== null);
          setFirmwareError(valid.length < values.length ? t('filter.firmwareInvalid') : null);
          onChange({ firmware: valid });
        }}
        error={firmwareError}
        clearable
        w={170}
        data-testid="filter-firmware"
      />
      {active && (
        <Button
          variant="subtle"
          leftSection={<IconFilterOff size={16} />}
          onClick={() => {
            setText('');
            onChange({ q: '', status: [], model: [], company_id: [], firmware: [], tag_id: [] });
          }}
        >
          {t('filter.clear')}
        </Button>
      )}
    </Group>
  );
}
