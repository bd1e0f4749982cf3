import { Alert, Button, Group, Radio, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useMemo } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormErrorList } from '#src/components/forms/FormErrorList';
import type { FormBodyProps, FormDefinition } from '#src/lib/forms/types';
import { useSchemaForm } from '#src/lib/forms/use-schema-form';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { type DeviceOption, useDevice } from '../api/devices';
import { useDeviceService } from '../api/services';
import { type ResourceChoice, resourceChoices } from '../utils/move-resources';
import { DeviceSelect } from './DeviceSelect';

const NONE: readonly DeviceOption[] = [];

/**
 * 'Move device resources' (product §2 dialog; POST /devices/credits/move): from the device it
 * was opened from (or one chosen on the full-page form) to a device chosen by search, a
 * credit's remaining whole days or one unused connection data pack. What may move follows the
 * source's service; what moving does is said under the fields. Its body is its own (the
 * devices and the resources load as the source changes), on the engine's useSchemaForm.
 */
export function MoveDeviceResourcesForm({
  definition: base,
  id,
  formId,
  onSuccess,
  onCancel,
}: FormBodyProps) {
  const { t } = useTranslation('devices');
  const { t: tf } = useTranslation('forms');
  const { can } = useSession();
  const definition = useMemo<FormDefinition>(
    () => ({ ...base, defaults: { source: id, target: undefined, resource: undefined } }),
    [base, id],
  );
  const { form, values, status, formErrors, submit } = useSchemaForm(definition, {
    id,
    formId,
    can,
    ...(onSuccess ? { onSuccess } : {}),
  });

  const preset = useDevice(Number(id ?? 0));
  const known = useMemo<readonly DeviceOption[]>(
    () => (preset.data ? [{ id: preset.data.id, name: preset.data.name, serial: preset.data.serial }] : NONE),
    [preset.data],
  );
  const sourceId = Number(values.source) || null;
  const service = useDeviceService(sourceId ?? 0, sourceId !== null);
  const choices = useMemo(() => resourceChoices(service.data), [service.data]);
  const movable = choices.filter((choice) => choice.kind !== 'days' || !choice.block).map((c) => c.value);

  // Another source: the target may not be it, and what it cannot move is no longer chosen.
  const offeredKey = service.data ? movable.join('|') : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the source or its resources change.
  useEffect(() => {
    if (sourceId !== null && Number(form.getValues('target')) === sourceId)
      form.setValue('target', undefined);
    const resource = form.getValues('resource') as string | undefined;
    if (offeredKey !== null && resource && !movable.includes(resource)) form.setValue('resource', undefined);
  }, [sourceId, offeredKey]);

  const chosen = choices.find((choice) => choice.value === values.resource);
  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      data-testid={`form-${definition.name}`}
      data-status={status}
    >
      <Stack>
        <FormErrorList errors={formErrors} />
        <DeviceSelect form={form} name="source" label={t('move.source')} known={known} />
        <DeviceSelect
          form={form}
          name="target"
          label={t('move.target')}
          description={t('move.targetHint')}
          exclude={sourceId}
          autoFocus
        />
        <Controller
          control={form.control}
          name="resource"
          render={({ field, fieldState }) => (
            <Radio.Group
              name="resource"
              label={t('move.resource')}
              required
              value={(field.value as string | undefined) ?? ''}
              onChange={(value) => {
                field.onChange(value);
                if (fieldState.error) form.clearErrors('resource');
              }}
              error={fieldState.error?.message}
            >
              <Stack gap="xs" mt={6} data-testid="move-resources">
                {choices.map((choice) => (
                  <Radio
                    key={choice.value}
                    value={choice.value}
                    label={choice.kind === 'days' ? t('move.days') : choice.value}
                    description={<ChoiceNote choice={choice} until={service.data?.service_until ?? null} />}
                    disabled={choice.kind === 'days' && choice.block !== null}
                    data-testid={choice.kind === 'days' ? 'move-resource-days' : 'move-resource-pack'}
                  />
                ))}
                {service.data && choices.length === 1 && (
                  <Text size="xs" c="dimmed" data-testid="move-no-packs">
                    {t('move.noPacks')}
                  </Text>
                )}
              </Stack>
            </Radio.Group>
          )}
        />
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} data-testid="move-explain">
          {chosen?.kind === 'days'
            ? t('move.explain.days', { count: chosen.days })
            : chosen?.kind === 'data_pack'
              ? t('move.explain.pack', { name: chosen.value })
              : t('move.explain.none')}
        </Alert>
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {tf('action.cancel')}
            </Button>
          )}
          <Button type="submit" loading={status === 'waiting'}>
            {t('move.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Under a choice: how many days or packs the source has, or why its days cannot move. */
function ChoiceNote({ choice, until }: { choice: ResourceChoice; until: string | null }) {
  const { t } = useTranslation('devices');
  if (choice.kind === 'data_pack') return t('move.packsLeft', { count: choice.left });
  if (choice.block) return t(`move.block.${choice.block}`);
  if (choice.days > 0) return t('move.daysLeft', { count: choice.days, until: formatTime(until) });
  return null;
}
