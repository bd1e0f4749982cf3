import '@xterm/xterm/css/xterm.css';
import type { TerminalNotice } from '@fleetgate/shared/devices/tunnel';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { Alert, Badge, Box, Button, Center, Code, Group, Stack, Text } from '@mantine/core';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConnectHeader } from '../ConnectHeader';
import { DeviceSignIn } from '../DeviceSignIn';
import { SharedGate } from '../SharedGate';
import { useTargetName } from '../use-target-name';
import { targetOf } from './target';
import { openTerminal, type TerminalConnection, type TerminalTarget } from './terminal-socket';

export type TerminalProtocol = 'ssh' | 'telnet';

/** The console screen of /rms-connect/ssh and /rms-connect/telnet: the target the address names, or why there is none. */
export function TerminalScreen({ user, protocol }: { user: CurrentUser | null; protocol: TerminalProtocol }) {
  const { t } = useTranslation('connect');
  const target = targetOf(window.location.search);
  if (!target)
    return (
      <Center mih="100vh" p="md" data-testid={`connect-${protocol}`}>
        <Alert color="gray" maw={480} data-testid="connect-ssh-no-target">
          {t('ssh.noTarget')}
        </Alert>
      </Center>
    );
  const console = <TerminalConsole target={target} user={user} protocol={protocol} />;
  // product §2: a share link's key opens the SSH console without sign-in.
  if ('key' in target)
    return protocol === 'ssh' ? (
      <SharedGate shareKey={target.key} testId="connect-ssh">
        {console}
      </SharedGate>
    ) : null;
  return console;
}

type State =
  | { kind: 'signin'; error?: string }
  | { kind: 'connecting' }
  | { kind: 'connected'; hostKey: string }
  | { kind: 'closed'; reason: string; error?: boolean };

/**
 * The console (product §2 /rms-connect/ssh, /rms-connect/telnet): signs in to the device through
 * its tunnel and draws its shell with xterm.js, fitted to the window and resized with it. Over
 * SSH the host key the device presented is shown as OpenSSH prints it (the server pins it on
 * first use); over telnet the user name and password answer the device's login prompts.
 */
export function TerminalConsole({
  target,
  user,
  protocol,
}: {
  target: TerminalTarget;
  user: CurrentUser | null;
  protocol: TerminalProtocol;
}) {
  const { t } = useTranslation('connect');
  const name = useTargetName(target);
  const [state, setState] = useState<State>({ kind: 'signin' });
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

  function connect({ username, password }: { username: string; password: string }) {
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
      protocol,
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
  }

  const live = state.kind === 'connected' || state.kind === 'connecting';
  return (
    <Stack p="md" gap="sm" h="100vh" data-testid={`connect-${protocol}`}>
      <ConnectHeader
        title={t(protocol === 'telnet' ? 'telnet.title' : 'ssh.title')}
        name={name}
        user={user}
        testId="ssh"
      >
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
      </ConnectHeader>

      {(state.kind === 'signin' || state.kind === 'closed') && (
        <DeviceSignIn
          intro={t(protocol === 'telnet' ? 'telnet.intro' : 'ssh.intro')}
          ended={state.kind === 'closed' ? state : undefined}
          again={state.kind === 'closed'}
          onSubmit={connect}
          testId="ssh"
        />
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
