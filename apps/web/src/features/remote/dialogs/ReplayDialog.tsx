import '@xterm/xterm/css/xterm.css';
import { Alert, Box, Button, Group, Loader, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchFileText } from '#src/lib/http/download';
import { failureMessage } from '#src/lib/http/results';
import { type Cast, castLength, parseCast } from '../utils/asciicast';
import { formatDuration } from '../utils/format';

export type ReplayProps = { sessionId: string };

const SPEEDS = ['1', '2', '8'] as const;
/** Pauses longer than this are shortened to it: nobody wants to watch a user think. */
const IDLE_MAX_S = 2;

/**
 * Replays a recorded terminal session (GET /remote/sessions/{id}/recording, asciicast v2) in
 * xterm.js: what the user saw, at its pace (long pauses shortened) or faster.
 */
export function ReplayDialog({ sessionId }: ReplayProps) {
  const { t } = useTranslation('remote');
  const recording = useQuery({
    queryKey: ['remote', 'recording', sessionId],
    queryFn: async () => parseCast(await fetchFileText(`/remote/sessions/${sessionId}/recording`)),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (recording.isPending) return <Loader size="sm" />;
  if (recording.isError)
    return (
      <Alert color="red" role="alert">
        {failureMessage(recording.error, 'get', 'recording')}
      </Alert>
    );
  return <Player cast={recording.data} label={t('replay.screen')} />;
}

function Player({ cast, label }: { cast: Cast; label: string }) {
  const { t } = useTranslation('remote');
  const screen = useRef<HTMLDivElement>(null);
  const term = useRef<Terminal>(undefined);
  const [speed, setSpeed] = useState<(typeof SPEEDS)[number]>('1');
  const [playing, setPlaying] = useState(0);
  const [done, setDone] = useState(false);

  useEffect(() => {
    const terminal = new Terminal({ cols: cast.width, rows: cast.height, disableStdin: true, fontSize: 13 });
    terminal.open(screen.current!);
    term.current = terminal;
    return () => terminal.dispose();
  }, [cast]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a play starts when asked (playing), at the speed then chosen.
  useEffect(() => {
    const terminal = term.current;
    if (!terminal) return;
    terminal.reset();
    terminal.resize(cast.width, cast.height);
    setDone(false);
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let index = 0;
    const step = () => {
      if (cancelled) return;
      const event = cast.events[index++];
      if (!event) return setDone(true);
      if (event.kind === 'o') terminal.write(event.data);
      else {
        const [cols, rows] = event.data.split('x').map(Number);
        if (cols && rows) terminal.resize(cols, rows);
      }
      const next = cast.events[index];
      if (!next) return setDone(true);
      const wait = Math.min(next.at - event.at, IDLE_MAX_S) / Number(speed);
      timer = setTimeout(step, Math.max(0, wait * 1000));
    };
    timer = setTimeout(step, 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [playing, cast]);

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" c="dimmed" data-testid="replay-length">
          {t('replay.length', { duration: formatDuration(castLength(cast) * 1000) })}
        </Text>
        <Group gap="xs">
          <SegmentedControl
            size="xs"
            aria-label={t('replay.speed')}
            value={speed}
            onChange={(value) => setSpeed(value as (typeof SPEEDS)[number])}
            data={SPEEDS.map((s) => ({ value: s, label: `${s}×` }))}
          />
          <Button
            size="xs"
            variant="default"
            leftSection={<IconPlayerPlay size={14} />}
            onClick={() => setPlaying((n) => n + 1)}
            data-testid="replay-again"
          >
            {t('replay.again')}
          </Button>
        </Group>
      </Group>
      <Box
        ref={screen}
        p={4}
        bg="#101113"
        style={{ borderRadius: 4, overflow: 'auto' }}
        aria-label={label}
        data-testid="replay-screen"
        data-done={done ? 'yes' : 'no'}
      />
    </Stack>
  );
}
