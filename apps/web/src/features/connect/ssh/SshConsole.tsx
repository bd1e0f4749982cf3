import '@xterm/xterm/css/xterm.css';
import type { TerminalNotice } from '@fleetgate/shared/devices/tunnel';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Code,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '#src/lib/http/client';
import { targetOf } from './target';
import { openTerminal, type TerminalConnection, type TerminalTarget } from './terminal-socket';

/** The console screen of /rms-connect/ssh: the target the address names, or why there is none. */
export function SshScreen({ user }: { user: CurrentUser | null }) {
  const { t } = useTranslation('connect');
  // product §2: a link with a key opens the console without sign-in. Share links are not
  // issued yet, so no key is valid: it is refused in words rather than left waiting.
  if (new URLSearchParams(window.location.search).has('key'))
    return (
      <Center mih="100vh" p="md" data-testid="connect-ssh">
        <Alert color="red" maw={480} role="alert" data-testid="connect-ssh-key">
          {t('ssh.keyInvalid')}
        </Alert>
      </Center>
    );
  const target = targetOf(window.location.search);
  if (!target)
    return (
      <Center mih="100vh" p="md" data-testid="connect-ssh">
        <Alert color="gray" maw={480} data-testid="connect-ssh-no-target">
          {t('ssh.noTarget')}
        </Alert>
      </Center>
    );
  return <SshConsole target={target} user={user} />;
}

type State =
  | { kind: 'signin'; error?: string }
  | { kind: 'connecting' }
  | { kind: 'connected'; hostKey: string }
  | { kind: 'closed'; reason: string; error?: boolean };

/** What the header names: the device, and the entry when one was opened. */
function useTargetName(target: TerminalTarget) {
  const [name, setName] = useState<string>();
  useEffect(() => {
    const load =
      'entry_id' in target
        ? api
            .get<{ name: string; device_name: string }>(`/devices/remote-access/${target.entry_id}`)
            .then((r) => `${r.data.device_name} · ${r.data.name}`)
        : api.get<{ name: string }>(`/devices/${target.device_id}`).then((r) => r.data.name);
    load.then(setName, () => setName(undefined));
  }, [target]);
  return name;
}

/**
 * The SSH console (product §2 /rms-connect/ssh): signs in to the device through its tunnel and
 * draws its shell with xterm.js, fitted to the window and resized with it. The host key the
 * device presented is shown as OpenSSH prints it; the server pins it on first use.
 */
export function SshConsole({ target, user }: { target: TerminalTarget; user: CurrentUser | null }) {
  const { t } = useTranslation('connect');
  const name = useTargetName(target);
  const [state, setState] = useState<State>({ kind: 'signin' });
  const [username, setUsername] = useState('admin');
  const [password, setPassword] = useState('');
  const screen = useRef<HTMLDivElement>(null);
  const terminal = useRef<{ term: Terminal; fit: FitAddon; connection?: TerminalConnection }>(undefined);

  useEffect(() => {
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
      fontSize: 14,
      theme: { background: '#101113' },
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    terminal.current = { term, fit };
    term.open(screen.current!);
    const onResize = () => {
      fit.fit();
      terminal.current?.connection?.resize(term.cols, term.rows);
    };
    window.addEventListener('resize', onResize);
    const typed = term.onData((text) => terminal.current?.connection?.send(text));
    return () => {
      window.removeEventListener('resize', onResize);
      typed.dispose();
      terminal.current?.connection?.close();
      term.dispose();
    };
  }, []);

  function connect() {
    const parts = terminal.current!;
    parts.term.reset();
    parts.fit.fit();
    setState({ kind: 'connecting' });
    const onNotice = (notice: TerminalNotice) => {
      if (notice.type === 'connected') {
        setState({ kind: 'connected', hostKey: notice.host_key });
        // The screen was hidden behind the form: fit it now that it shows.
        requestAnimationFrame(() => {
          parts.fit.fit();
          parts.connection?.resize(parts.term.cols, parts.term.rows);
          parts.term.focus();
        });
      } else if (notice.type === 'error') setState({ kind: 'closed', reason: notice.message, error: true });
      else
        setState((now) =>
          now.kind === 'closed' && now.error ? now : { kind: 'closed', reason: notice.reason },
        );
    };
    parts.connection = openTerminal(
      target,
      { username, password, cols: parts.term.cols, rows: parts.term.rows },
      {
        data: (bytes) => parts.term.write(bytes),
        notice: onNotice,
        close: (clean) => {
          if (!clean)
            setState((now) =>
              now.kind === 'closed' ? now : { kind: 'closed', reason: t('ssh.lost'), error: true },
            );
        },
      },
    );
    setPassword('');
  }

  const live = state.kind === 'connected' || state.kind === 'connecting';
  return (
    <Stack p="md" gap="sm" h="100vh" data-testid="connect-ssh">
      <Group justify="space-between" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" miw={0}>
          <Title order={1} size="h3">
            {t('ssh.title')}
          </Title>
          {name && (
            <Text c="dimmed" truncate data-testid="ssh-target">
              {name}
            </Text>
          )}
        </Group>
        <Group gap="xs" wrap="nowrap">
          {user && (
            <Text size="sm" visibleFrom="sm">
              {user.email}
            </Text>
          )}
          {live ? (
            <Button
              variant="default"
              onClick={() => terminal.current?.connection?.close()}
              data-testid="ssh-disconnect"
            >
              {t('ssh.disconnect')}
            </Button>
          ) : (
            <Button variant="default" onClick={() => window.close()}>
              {t('close')}
            </Button>
          )}
        </Group>
      </Group>

      {(state.kind === 'signin' || state.kind === 'closed') && (
        <Paper withBorder p="md" maw={420} w="100%" mx="auto">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              connect();
            }}
          >
            <Stack gap="sm">
              {state.kind === 'closed' && (
                <Alert color={state.error ? 'red' : 'gray'} role="status" data-testid="ssh-ended">
                  {state.reason}
                </Alert>
              )}
              <Text size="sm">{t('ssh.intro')}</Text>
              <TextInput
                label={t('ssh.username')}
                value={username}
                onChange={(event) => setUsername(event.currentTarget.value)}
                required
                maxLength={64}
                autoComplete="username"
              />
              <PasswordInput
                label={t('ssh.password')}
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                maxLength={256}
                autoComplete="current-password"
                data-autofocus
              />
              <Button type="submit" data-testid="ssh-connect">
                {state.kind === 'closed' ? t('ssh.reconnect') : t('ssh.connect')}
              </Button>
            </Stack>
          </form>
        </Paper>
      )}

      <Box
        ref={screen}
        flex={1}
        mih={0}
        p={4}
        bg="#101113"
        style={{ borderRadius: 4, display: live ? 'block' : 'none' }}
        data-testid="ssh-screen"
        aria-label={t('ssh.screen')}
      />

      <Group gap="xs" justify="space-between" wrap="wrap">
        <Badge
          variant="light"
          color={state.kind === 'connected' ? 'green' : state.kind === 'connecting' ? 'blue' : 'gray'}
          data-testid="ssh-state"
        >
          {t(`ssh.state.${state.kind}`)}
        </Badge>
        {state.kind === 'connected' && state.hostKey && (
          <Text size="xs" c="dimmed">
            {t('ssh.hostKey')} <Code data-testid="ssh-host-key">{state.hostKey}</Code>
          </Text>
        )}
      </Group>
    </Stack>
  );
}
