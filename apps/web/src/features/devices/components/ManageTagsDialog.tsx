import type { DeviceTagsResult } from '@fleetgate/shared/schemas/tags';
import { Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindow } from '#src/lib/dialogs/window-context';
import { api } from '#src/lib/http/client';
import { useAction } from '#src/lib/http/use-action';
import { deviceKeys, useTagOptions } from '../api/devices';

type Props = { devices: readonly { id: number; name: string }[] };

/**
 * 'Manage tags' (product §2 device dialog) for one device or a selection: adds a tag to the
 * devices or removes it, with the bulk body of product §7 (`{action, tag_id, device_id[]}`).
 */
export function ManageTagsDialog({ devices }: Props) {
  const { t } = useTranslation('devices');
  const window = useWindow();
  const tags = useTagOptions(true);
  const [action, setAction] = useState<'add' | 'remove'>('add');
  const [tagId, setTagId] = useState<string | null>(null);
  const change = useAction({
    call: (body: { action: 'add' | 'remove'; tag_id: number; device_id: number[] }) =>
      api.post<DeviceTagsResult>('/devices/tags', body, { keepOnRouteChange: true }),
    failure: { verb: 'update', item: 'tags' },
    invalidate: [deviceKeys.all],
    success: t('tags.done'),
    onSuccess: () => window?.close(),
  });

  async function submit() {
    if (!tagId || change.pending) return;
    await change.run({ action, tag_id: Number(tagId), device_id: devices.map((d) => d.id) });
  }

  return (
    <Stack data-testid="manage-tags">
      <Text size="sm">
        {devices.length === 1 ? devices[0]!.name : t('bulk.selected', { count: devices.length })}
      </Text>
      <SegmentedControl
        value={action}
        onChange={(value) => setAction(value as 'add' | 'remove')}
        data={[
          { value: 'add', label: t('tags.add') },
          { value: 'remove', label: t('tags.remove') },
        ]}
      />
      <Select
        label={t('filter.tag')}
        data={(tags.data ?? []).map((tag) => ({ value: String(tag.id), label: tag.name }))}
        value={tagId}
        onChange={setTagId}
        searchable
        nothingFoundMessage={t('tags.none')}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={() => window?.close()}>
          {t('confirm.cancel')}
        </Button>
        <Button onClick={() => void submit()} loading={change.pending} disabled={!tagId}>
          {t(action === 'add' ? 'tags.add' : 'tags.remove')}
        </Button>
      </Group>
    </Stack>
  );
}
