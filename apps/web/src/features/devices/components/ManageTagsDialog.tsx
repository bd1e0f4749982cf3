import { Button, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindow } from '../../../lib/dialogs/window-context';
import { api } from '../../../lib/http/client';
import { failureMessage, successToast } from '../../../lib/http/results';
import { deviceKeys, useTagOptions } from '../api/devices';

type Props = { devices: readonly { id: number; name: string }[] };

/**
 * 'Manage tags' (product §2 device dialog) for one device or a selection: adds a tag to the
 * devices or removes it, with the bulk body of product §7 (`{action, tag_id, device_id[]}`).
 */
export function ManageTagsDialog({ devices }: Props) {
  const { t } = useTranslation('devices');
  const window = useWindow();
  const queryClient = useQueryClient();
  const tags = useTagOptions(true);
  const [action, setAction] = useState<'add' | 'remove'>('add');
  const [tagId, setTagId] = useState<string | null>(null);
  const [waiting, setWaiting] = useState(false);

  async function submit() {
    if (!tagId || waiting) return;
    setWaiting(true);
    try {
      const response = await api.post<{ changed: number }>(
        '/devices/tags',
        { action, tag_id: Number(tagId), device_id: devices.map((d) => d.id) },
        { keepOnRouteChange: true },
      );
      notifications.show({ color: 'green', message: successToast(response.message, t('tags.done')) });
      void queryClient.invalidateQueries({ queryKey: deviceKeys.all });
      window?.close();
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, 'update', 'tags') });
    } finally {
      setWaiting(false);
    }
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
        <Button onClick={() => void submit()} loading={waiting} disabled={!tagId}>
          {t(action === 'add' ? 'tags.add' : 'tags.remove')}
        </Button>
      </Group>
    </Stack>
  );
}
