import { ActionIcon, ComboboxChevron, Pill, PillsInput, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilterOff, IconSearch } from '@tabler/icons-react';
import { type ComponentType, memo, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { later, useLater } from '#src/components/overlay/later';
import { Tip } from '#src/components/overlay/Tip';
import classes from './DeviceFiltersBar.module.css';
import type { FilterFieldsProps } from './FilterFields';

/** product §9: input debounce 500 ms. */
const SEARCH_DEBOUNCE_MS = 500;

/**
 * The fields with lists come from ./FilterFields, Mantine's combobox with floating-ui (about
 * 30 KB gzip): loaded when the pointer or the focus first reaches the bar, or at once when a
 * filter is set, not with the landing. Until then look-alikes hold their places.
 */
const filterFields = later<ComponentType<FilterFieldsProps>>(() =>
  import('./FilterFields').then((m) => m.FilterFields),
);

/** The look-alikes' fields, in the order FilterFields draws them. */
const LOOK_ALIKES = [
  { testId: 'filter-status', label: 'filter.status', searchable: false },
  { testId: 'filter-model', label: 'filter.model', searchable: true },
  { testId: 'filter-company', label: 'filter.company', searchable: true, only: 'companies' },
  { testId: 'filter-tag', label: 'filter.tag', searchable: true, only: 'tags' },
  { testId: 'filter-firmware', label: 'filter.firmware', searchable: true, tags: true },
] as const;

/** The field a look-alike handed over: the real one takes the focus, and opens when pressed. */
type Handoff = { testId: string; open: boolean } | null;

/**
 * Empty fields drawn as FilterFields draws them (pill lists with a chevron), for the moment
 * before its code comes; read-only, so that nothing typed is lost.
 */
function LookAlikes({
  companies,
  tags,
  handoff,
}: {
  companies: boolean;
  tags: boolean;
  handoff: { current: Handoff };
}) {
  const { t } = useTranslation('devices');
  const id = useId();
  const fields = LOOK_ALIKES.filter((f) => !('only' in f) || (f.only === 'companies' ? companies : tags));
  return fields.map((field, index) => {
    const list = !('tags' in field);
    return (
      <PillsInput
        key={field.testId}
        id={`${id}-${index}`}
        label={t(field.label)}
        className={classes.field}
        rightSection={list ? <ComboboxChevron /> : null}
        rightSectionPointerEvents="none"
        pointer={!field.searchable}
      >
        <Pill.Group className={classes.pills}>
          <PillsInput.Field
            readOnly
            pointer={!field.searchable}
            className={classes.inputField}
            placeholder={list ? t('filter.any') : t('filter.firmwarePlaceholder')}
            data-testid={field.testId}
            onPointerDown={() => {
              handoff.current = { testId: field.testId, open: list };
            }}
            onFocus={() => {
              const before = handoff.current;
              handoff.current = {
                testId: field.testId,
                open: before?.testId === field.testId && before.open,
              };
            }}
            onBlur={() => {
              if (handoff.current?.testId === field.testId) handoff.current = null;
            }}
          />
        </Pill.Group>
      </PillsInput>
    );
  });
}

/** Search on name, serial, MAC and IMEI, and the filters (status, model, company, firmware). */
export const DeviceFiltersBar = memo(function DeviceFiltersBar({
  filters,
  onChange,
  companies,
  tags,
}: FilterFieldsProps) {
  const { t } = useTranslation('devices');
  const [text, setText] = useState(filters.q);
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);
  const [Fields, want] = useLater(filterFields);
  const bar = useRef<HTMLElement>(null);
  const handoff = useRef<Handoff>(null);
  useLayoutEffect(() => {
    const next = handoff.current;
    if (!Fields || !next) return;
    handoff.current = null;
    const field = bar.current?.querySelector<HTMLElement>(`[data-testid="${next.testId}"]`);
    field?.focus();
    if (next.open) field?.click();
  }, [Fields]);

  // Typing reaches the list after a pause; a search set from outside (global search) reaches the box.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new debounced text is sent.
  useEffect(() => {
    if (debounced !== filters.q) onChange({ q: debounced });
  }, [debounced]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the URL, not the typing.
  useEffect(() => {
    if (filters.q !== debounced) setText(filters.q);
  }, [filters.q]);

  // A filter set by the address needs its chip at once.
  const chosen =
    filters.status.length +
    filters.model.length +
    filters.company_id.length +
    filters.firmware.length +
    filters.tag_id.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: want only starts the one load.
  useEffect(() => {
    if (chosen > 0) want();
  }, [chosen > 0]);

  const active = filters.q !== '' || chosen > 0;

  return (
    // The table's search and filters form the page's search landmark.
    <search
      className={classes.bar}
      ref={bar}
      data-testid="device-filters"
      onPointerEnter={want}
      onFocus={want}
    >
      <TextInput
        label={t('filter.search')}
        placeholder={t('filter.searchPlaceholder')}
        leftSection={<IconSearch size={16} />}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        className={classes.search}
        data-testid="device-search"
      />
      {Fields ? (
        <Fields filters={filters} onChange={onChange} companies={companies} tags={tags} />
      ) : (
        <LookAlikes companies={companies} tags={tags} handoff={handoff} />
      )}
      {/* Always in place (hidden while there is nothing to clear), so that a first filter moves nothing. */}
      <Tip label={t('filter.clear')} disabled={!active}>
        <ActionIcon
          variant="subtle"
          size={36}
          aria-label={t('filter.clear')}
          aria-hidden={!active || undefined}
          tabIndex={active ? undefined : -1}
          disabled={!active}
          className={classes.clear}
          data-idle={!active || undefined}
          data-testid="filter-clear"
          onClick={() => {
            setText('');
            onChange({ q: '', status: [], model: [], company_id: [], firmware: [], tag_id: [] });
          }}
        >
          <IconFilterOff size={18} />
        </ActionIcon>
      </Tip>
    </search>
  );
});
