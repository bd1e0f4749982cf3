import { Button, Group, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyInfo } from '#src/lib/http/toasts';
import { useAction } from '#src/lib/http/use-action';
import { currentTimezone, formatTime, savedTimezone, timezoneNames } from '#src/lib/time';
import { resetTimezone, saveTimezone } from '../preferences/timezone';

/** Ticks once a second while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function Clock({ label, zone, now, testId }: { label: string; zone: string; now: number; testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text ff="monospace" fw={600} data-testid={testId} data-zone={zone}>
        {formatTime(now, zone)}
      </Text>
    </Stack>
  );
}

type Props = { opened: boolean; onClose(): void; reload?: () => void };

/**
 * System timezone of product §2 Header widgets 3 and §4: a select of zone names with live
 * clocks of the selected zone and UTC; saving reloads after 300 ms, reset goes back to
 * the browser's zone.
 */
export function TimezoneModal({ opened, onClose, reload }: Props) {
  const { t } = useTranslation('preferences');
  const names = useMemo(() => timezoneNames().map((name) => ({ value: name, label: name })), []);
  const [zone, setZone] = useState(currentTimezone);
  const now = useNow();
  const saved = savedTimezone();
  // Both reload the page shortly after (product §4): the buttons stay busy until then.
  const [done, setDone] = useState<'save' | 'reset' | null>(null);
  const save = useAction({
    call: (selected: string) => saveTimezone(selected, reload),
    failure: { verb: 'update', item: 'timezone' },
    success: t('timezone.updated'),
    onSuccess: () => setDone('save'),
  });
  const reset = useAction({
    call: () => resetTimezone(reload),
    failure: { verb: 'update', item: 'timezone' },
    onSuccess: () => {
      notifyInfo(t('timezone.defaultUsed'));
      setDone('reset');
    },
  });
  const busy = save.pending ? 'save' : reset.pending ? 'reset' : done;

  return (
    <Modal opened={opened} onClose={onClose} title={t('timezone.title')} size="md">
      <Stack>
        <Select
          label={t('timezone.label')}
          data={names}
          value={zone}
          onChange={(value) => value && setZone(value)}
          searchable
          allowDeselect={false}
          nothingFoundMessage={t('timezone.nothingFound')}
          maxDropdownHeight={260}
          comboboxProps={{ withinPortal: true }}
          data-testid="timezone-select"
        />
        <SimpleGrid cols={2} data-testid="timezone-clocks">
          <Clock label={t('timezone.selectedTime', { zone })} zone={zone} now={now} testId="clock-selected" />
          <Clock label={t('timezone.utcTime')} zone="UTC" now={now} testId="clock-utc" />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {saved ? t('timezone.savedHint', { zone: saved }) : t('timezone.browserHint')}
        </Text>
        <Group justify="space-between">
          <Button
            variant="default"
            onClick={() => void reset.run()}
            loading={busy === 'reset'}
            disabled={!!busy}
          >
            {t('timezone.reset')}
          </Button>
          <Button onClick={() => void save.run(zone)} loading={busy === 'save'} disabled={!!busy}>
            {t('timezone.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
