import { CONNECT_DESKTOP_PATH } from '@fleetgate/shared/devices/tunnel';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import {
  Alert,
  Badge,
  Box,
  Button,
  Center,
  Checkbox,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
} from '@mantine/core';
import RFB from '@novnc/novnc';
import { IconKeyboard } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConnectHeader } from '../ConnectHeader';
import { SharedGate } from '../SharedGate';
import { targetOf } from '../terminal/target';
import { connectUrl, type TerminalTarget } from '../terminal/terminal-socket';
import { useTargetName } from '../use-target-name';

type State =
  | { kind: 'connecting' }
  | { kind: 'password' }
  | { kind: 'connected' }
  | { kind: 'closed'; reason: string; error: boolean };

/** The desktop screen of /rms-connect/desktop: the target the address names, or why there is none. */
export function DesktopScreen({ user }: { user: CurrentUser | null }) {
  const { t } = useTranslation('connect');
  const target = targetOf(window.location.search);
  if (!target)
    return (
      <Center mih="100vh" p="md" data-testid="connect-desktop">
        <Alert color="gray" maw={480} data-testid="desktop-no-target">
          {t('desktop.noTarget')}
        </Alert>
      </Center>
    );
  // product §2: a share link's key opens the desktop without sign-in.
  if ('key' in target)
    return (
      <SharedGate shareKey={target.key} testId="connect-desktop">
        <Reconnecting target={target} user={user} />
      </SharedGate>
    );
  return <Reconnecting target={target} user={user} />;
}

/** 'Connect again' starts a new desktop: a fresh socket, screen and state. */
function Reconnecting({ target, user }: { target: TerminalTarget; user: CurrentUser | null }) {
  const [attempt, setAttempt] = useState(0);
  return <Desktop key={attempt} target={target} user={user} onReconnect={() => setAttempt((n) => n + 1)} />;
}

/**
 * The desktop (product §2 /rms-connect/desktop): a VNC server on the device or its LAN, drawn
 * by noVNC over the console's desktop WebSocket, which carries the RFB bytes through the
 * device's tunnel. The socket is opened here and handed to noVNC so that the server's words
 * in its close frame (why the session ended) reach the screen.
 */
export function Desktop({
  target,
  user,
  onReconnect,
}: {
  target: TerminalTarget;
  user: CurrentUser | null;
  onReconnect(): void;
}) {
  const { t } = useTranslation('connect');
  const name = useTargetName(target);
  const screen = useRef<HTMLDivElement>(null);
  const rfb = useRef<RFB>(undefined);
  const [state, setState] = useState<State>({ kind: 'connecting' });
  const [password, setPassword] = useState('');
  const [scaled, setScaled] = useState(true);
  const [viewOnly, setViewOnly] = useState(false);

  useEffect(() => {
    setState({ kind: 'connecting' });
    const ws = new WebSocket(connectUrl(CONNECT_DESKTOP_PATH, target, window.location, 'vnc'));
    let said: { reason: string; error: boolean } | undefined;
    ws.addEventListener('close', (event) => {
      if (event.reason) said = { reason: event.reason, error: event.code !== 1000 && event.code !== 4000 };
    });
    // noVNC listens on the socket at once: the server's greeting arrives as soon as it opens.
    const client = new RFB(screen.current!, ws, { shared: true });
    client.scaleViewport = true;
    client.background = '#101113';
    rfb.current = client;
    client.addEventListener('connect', () => {
      setState({ kind: 'connected' });
      client.focus();
    });
    client.addEventListener('credentialsrequired', () => setState({ kind: 'password' }));
    client.addEventListener('securityfailure', (event) => {
      said = { reason: event.detail.reason || t('desktop.closed'), error: true };
    });
    client.addEventListener('disconnect', (event) => {
      setState({
        kind: 'closed',
        ...(said ??
          (event.detail.clean
            ? { reason: t('desktop.closed'), error: false }
            : { reason: t('desktop.lost'), error: true })),
      });
    });
    return () => {
      rfb.current = undefined;
      client.disconnect();
    };
  }, [target, t]);

  useEffect(() => {
    if (rfb.current) rfb.current.scaleViewport = scaled;
  }, [scaled]);
  useEffect(() => {
    if (rfb.current) rfb.current.viewOnly = viewOnly;
  }, [viewOnly]);

  const live = state.kind === 'connected';
  return (
    <Stack p="md" gap="sm" h="100vh" data-testid="connect-desktop">
      <ConnectHeader title={t('desktop.title')} name={name} user={user} testId="desktop">
        {state.kind === 'closed' ? (
          <Button onClick={onReconnect} data-testid="desktop-reconnect">
            {t('desktop.reconnect')}
          </Button>
        ) : (
          <Button
            variant="default"
            onClick={() => rfb.current?.disconnect()}
            data-testid="desktop-disconnect"
          >
            {t('ssh.disconnect')}
          </Button>
        )}
      </ConnectHeader>

      {state.kind === 'closed' && (
        <Alert color={state.error ? 'red' : 'gray'} role="status" data-testid="desktop-ended">
          {state.reason}
        </Alert>
      )}
      {state.kind === 'password' && (
        <Paper withBorder p="md" maw={420} w="100%" mx="auto">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              rfb.current?.sendCredentials({ username: '', password, target: '' });
              setPassword('');
              setState({ kind: 'connecting' });
            }}
          >
            <Stack gap="sm">
              <Text size="sm">{t('desktop.passwordIntro')}</Text>
              <PasswordInput
                label={t('desktop.password')}
                value={password}
                onChange={(event) => setPassword(event.currentTarget.value)}
                maxLength={256}
                data-autofocus
              />
              <Button type="submit" data-testid="desktop-send-password">
                {t('desktop.send')}
              </Button>
            </Stack>
          </form>
        </Paper>
      )}

      <Box
        ref={screen}
        flex={1}
        mih={0}
        bg="#101113"
        style={{
          borderRadius: 4,
          overflow: 'hidden',
          visibility: state.kind === 'closed' ? 'hidden' : 'visible',
        }}
        data-testid="desktop-screen"
        role="region"
        aria-label={t('desktop.screen')}
      />

      <Group gap="sm" justify="space-between" wrap="wrap">
        <Badge
          variant="light"
          color={live ? 'green' : state.kind === 'closed' ? 'gray' : 'blue'}
          data-testid="desktop-state"
        >
          {t(`ssh.state.${state.kind === 'password' ? 'connecting' : state.kind}`)}
        </Badge>
        <Group gap="md" wrap="wrap">
          <Checkbox
            label={t('desktop.scale')}
            checked={scaled}
            onChange={(e) => setScaled(e.currentTarget.checked)}
          />
          <Checkbox
            label={t('desktop.viewOnly')}
            checked={viewOnly}
            onChange={(e) => setViewOnly(e.currentTarget.checked)}
          />
          <Button
            variant="default"
            size="xs"
            leftSection={<IconKeyboard size={14} />}
            disabled={!live || viewOnly}
            onClick={() => rfb.current?.sendCtrlAltDel()}
          >
            {t('desktop.ctrlAltDel')}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
