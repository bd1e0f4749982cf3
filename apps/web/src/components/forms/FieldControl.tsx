import { Anchor, Checkbox, ColorInput, Group, NumberInput, Radio, Select, Stack, Text } from '@mantine/core';
import i18next from 'i18next';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ListItem } from '#src/lib/forms/list-input';
import type { FieldDef, FormValues } from '#src/lib/forms/types';
import { optionsOf } from '#src/lib/forms/use-schema-form';
import { DateTimeField } from './fields/DateTimeField';
import { FileField } from './fields/FileField';
import { ListInput } from './fields/ListInput';
import { TextField } from './fields/TextField';

/** The message at a dotted path of react-hook-form's errors (`data.2.serial`). */
function errorAt(errors: unknown, path: string): string | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  const message = node && typeof node === 'object' ? (node as { message?: unknown }).message : undefined;
  return typeof message === 'string' ? message : undefined;
}

/** Item errors of a list field by position (product §8: bulk errors map by position). */
function itemErrorsAt(errors: unknown, key: string): Record<number, string> | undefined {
  const node = (errors as Record<string, unknown> | undefined)?.[key];
  if (!Array.isArray(node)) return undefined;
  const out: Record<number, string> = {};
  node.forEach((entry, index) => {
    const message = (entry as { message?: unknown } | undefined)?.message;
    if (typeof message === 'string') out[index] = message;
  });
  return Object.keys(out).length ? out : undefined;
}

type Props = {
  field: FieldDef;
  form: UseFormReturn<FormValues>;
  ns: string;
  autoFocus: boolean;
  /** The form's current values (options may follow them). */
  values: FormValues;
};

/** One field of a form definition (product §3 Form field definition). */
export function FieldControl({ field, form, ns, autoFocus, values }: Props) {
  const { t } = useTranslation(ns);
  const errors = form.formState.errors;
  const error = errorAt(errors, field.key);
  const common = {
    name: field.key,
    label: t(field.label),
    ...(field.hint ? { description: t(field.hint) } : {}),
    ...(field.placeholder ? { placeholder: t(field.placeholder) } : {}),
    ...(error ? { error } : {}),
    ...(field.required ? { required: true } : {}),
    ...(field.disabled ? { disabled: true } : {}),
    ...(autoFocus ? { 'data-autofocus': true } : {}),
  };
  const options = optionsOf(field, values).map((o) => ({
    value: o.value,
    label: field.optionsAreData ? o.label : t(o.label),
  }));

  const control = (
    <Controller
      control={form.control}
      name={field.key}
      render={({ field: bound }) => {
        // product §5: a field error clears when the value changes.
        const change = (value: unknown) => {
          bound.onChange(value);
          if (form.getFieldState(field.key).error) form.clearErrors(field.key);
        };
        switch (field.type) {
          case 'checkbox':
            return (
              <Checkbox
                {...common}
                checked={Boolean(bound.value)}
                onChange={(e) => change(e.currentTarget.checked)}
              />
            );
          case 'radio':
            return (
              <Radio.Group {...common} value={(bound.value as string | undefined) ?? ''} onChange={change}>
                <Group mt={6}>
                  {options.map((o) => (
                    <Radio key={o.value} value={o.value} label={o.label} />
                  ))}
                </Group>
              </Radio.Group>
            );
          case 'select':
            return (
              <Select
                {...common}
                data={options}
                value={(bound.value as string | undefined) ?? null}
                onChange={(value) => change(value ?? undefined)}
                allowDeselect={!field.required}
                comboboxProps={{ withinPortal: true }}
                {...(field.nothingFound ? { nothingFoundMessage: t(field.nothingFound) } : {})}
              />
            );
          case 'number':
            return (
              <NumberInput
                {...common}
                value={(bound.value as number | string | undefined) ?? ''}
                onChange={(value) => change(value === '' ? undefined : Number(value))}
                min={field.min}
                max={field.max}
                // A value out of range stays as typed, with the schema's message under it; the
                // field would otherwise change it on leaving without a word.
                clampBehavior="none"
                // No decimal scale: a pasted 1.005 would be cut to 1.00 without a word; the
                // schema's step rule answers it instead.
                step={field.step}
                rightSection={field.addon}
              />
            );
          case 'color':
            return (
              <ColorInput
                {...common}
                value={(bound.value as string | undefined) ?? ''}
                onChange={change}
                eyeDropperButtonProps={{ 'aria-label': i18next.t('forms:colour.pick') }}
              />
            );
          case 'date':
          case 'datetime':
            return (
              <DateTimeField
                {...common}
                kind={field.type}
                value={(bound.value as string | null | undefined) ?? null}
                onChange={change}
              />
            );
          case 'file':
            return (
              <FileField
                field={field}
                {...common}
                value={(bound.value as File | null | undefined) ?? null}
                onChange={change}
              />
            );
          case 'list':
            return (
              <ListInput
                {...common}
                options={field.list ?? {}}
                value={(bound.value as ListItem[] | undefined) ?? []}
                onChange={change}
                itemErrors={itemErrorsAt(errors, field.key)}
              />
            );
          default:
            return (
              <TextField
                field={field}
                common={common}
                {...(field.addon ? { addon: t(field.addon) } : {})}
                value={(bound.value as string | undefined) ?? ''}
                onChange={change}
                onBlur={bound.onBlur}
              />
            );
        }
      }}
    />
  );

  if (!field.subtext && !field.href) return control;
  return (
    <Stack gap={4}>
      {control}
      {field.subtext && (
        <Text size="xs" c="dimmed">
          {t(field.subtext)}
        </Text>
      )}
      {field.href &&
        (/^https?:/.test(field.href.to) ? (
          <Anchor href={field.href.to} target="_blank" rel="noopener noreferrer" size="xs">
            {t(field.href.label)}
          </Anchor>
        ) : (
          <Anchor component={Link} to={field.href.to} size="xs">
            {t(field.href.label)}
          </Anchor>
        ))}
    </Stack>
  );
}
