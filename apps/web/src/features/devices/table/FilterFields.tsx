import { firmwareFilterOf } from '@fleetgate/shared/devices/firmware';
import { type ComboboxRenderPillInput, MultiSelect, Pill, TagsInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useModelName } from '#src/lib/brand/context';
import { useCompanyOptions, useModelOptions, useTagOptions } from '../api/devices';
import type { DeviceFilters } from '../api/types';
import { STATUS_FILTER_VALUES } from '../utils/constants';
import { statusLook } from '../utils/status';
import classes from './DeviceFiltersBar.module.css';

/**
 * Chips on one line, never cut (DeviceFiltersBar.module.css). The selects have no clear
 * button of their own: it would take a chip's room, and each chip has its ×.
 */
const CHIPS = { pill: classes.pill, pillsList: classes.pills, inputField: classes.inputField };

/** A chip that names its value in full on hover, for a name longer than its field. */
function titledPill({ option, value, onRemove, disabled }: ComboboxRenderPillInput) {
  const label = option?.label ?? value;
  return (
    <Pill withRemoveButton={!disabled} onRemove={onRemove} className={classes.pill} title={label}>
      {label}
    </Pill>
  );
}

/** What every list filter shares: its width, one line of full-named chips, a list over the page. */
const LIST = {
  className: classes.field,
  classNames: CHIPS,
  renderPill: titledPill,
  comboboxProps: { withinPortal: true },
};

type OptionList = 'model' | 'company' | 'tag';
const NONE_OPENED: ReadonlySet<OptionList> = new Set();

export type FilterFieldsProps = {
  filters: DeviceFilters;
  onChange(next: Partial<DeviceFilters>): void;
  /** The company filter is for users who see companies (product §6 view_companies). */
  companies: boolean;
  /** The tag filter is for users who see tags (view_tags). */
  tags: boolean;
};

/** The filters with lists (status, model, company, tag) and the firmware filter of DeviceFiltersBar. */
export function FilterFields({ filters, onChange, companies, tags }: FilterFieldsProps) {
  const { t } = useTranslation('devices');
  const modelName = useModelName();
  // A filter's options are fetched when its list is first opened, or when it has a value
  // whose chip needs its name: the landing asks for its rows alone, and the bar is not
  // drawn again with three answers while the rows come.
  const [opened, setOpened] = useState<ReadonlySet<OptionList>>(NONE_OPENED);
  const open = (list: OptionList) => () =>
    setOpened((before) => (before.has(list) ? before : new Set(before).add(list)));
  const models = useModelOptions(opened.has('model') || filters.model.length > 0);
  const companyOptions = useCompanyOptions(
    companies && (opened.has('company') || filters.company_id.length > 0),
  );
  const tagOptions = useTagOptions(tags && (opened.has('tag') || filters.tag_id.length > 0));
  const [firmwareError, setFirmwareError] = useState<string | null>(null);
  const modelOptions = (models.data ?? []).filter((m): m is { model: string; count: number } =>
    Boolean(m.model),
  );
  const modelCounts = new Map(modelOptions.map((m) => [m.model, m.count]));

  return (
    <>
      <MultiSelect
        label={t('filter.status')}
        placeholder={filters.status.length ? undefined : t('filter.any')}
        data={STATUS_FILTER_VALUES.map((s) => ({
          value: String(s),
          label: t(`status.${statusLook(s).key}`),
        }))}
        value={filters.status.map(String)}
        onChange={(values) => onChange({ status: values.map(Number) })}
        {...LIST}
        data-testid="filter-status"
      />
      <MultiSelect
        label={t('filter.model')}
        placeholder={filters.model.length ? undefined : t('filter.any')}
        // The chip names the model; the list also says how many devices have it.
        data={modelOptions.map((m) => ({ value: m.model, label: modelName(m) ?? m.model }))}
        renderOption={({ option }) => `${option.label} (${modelCounts.get(option.value) ?? 0})`}
        value={filters.model}
        onChange={(values) => onChange({ model: values })}
        onDropdownOpen={open('model')}
        searchable
        {...LIST}
        data-testid="filter-model"
      />
      {companies && (
        <MultiSelect
          label={t('filter.company')}
          placeholder={filters.company_id.length ? undefined : t('filter.any')}
          data={(companyOptions.data ?? []).map((c) => ({ value: String(c.id), label: c.name }))}
          value={filters.company_id.map(String)}
          onChange={(values) => onChange({ company_id: values.map(Number) })}
          onDropdownOpen={open('company')}
          searchable
          {...LIST}
          data-testid="filter-company"
        />
      )}
      {tags && (
        <MultiSelect
          label={t('filter.tag')}
          placeholder={filters.tag_id.length ? undefined : t('filter.any')}
          data={(tagOptions.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.name }))}
          value={filters.tag_id.map(String)}
          onChange={(values) => onChange({ tag_id: values.map(Number) })}
          onDropdownOpen={open('tag')}
          searchable
          {...LIST}
          data-testid="filter-tag"
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
        className={classes.field}
        classNames={CHIPS}
        data-testid="filter-firmware"
      />
    </>
  );
}
