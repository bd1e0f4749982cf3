import { Button, Group, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '../../../lib/http/results';
import { currentTimezone, formatTime, savedTimezone, timezoneNames } from '../../../lib/time';
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
  const [busy, setBusy] = useState<'save' | 'reset' | null>(null);
  const now = useNow();
  const saved = savedTimezone();

  const run = async (kind: 'save' | 'reset') => {
    setBusy(kind);
    try {
      if (kind === 'save') {
        await saveTimezone(zone, reload);
        notifications.show({ color: 'green', message: t('timezone.updated') });
      } else {
        await resetTimezone(reload);
        notifications.show({ message: t('timezone.defaultUsed') });
      }
    } catch (error) {
      notifications.show({ color: 'red', message: failureMessage(error, 'update', 'timezone') });
      setBusy(null);
    }
  };

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
          <Button variant="default" onClick={() => run('reset')} loading={busy === 'reset'} disabled={!!busy}>
            {t('timezone.reset')}
          </Button>
          <Button onClick={() => run('save')} loading={busy === 'save'} disabled={!!busy}>
            {t('timezone.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
