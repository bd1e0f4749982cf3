import type { ConnectScreen } from '@fleetgate/shared/routes';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { withNamespace } from '#src/i18n/i18n';

// Each screen brings its texts (the 'connect' namespace) and its heavy library (xterm.js,
// noVNC) with it: nothing of them is in the console's first load.
const TerminalScreen = lazy(() =>
  withNamespace('connect', () => import('./terminal/TerminalConsole')).then((m) => ({
    default: m.TerminalScreen,
  })),
);
const SftpScreen = lazy(() =>
  withNamespace('connect', () => import('./sftp/SftpBrowser')).then((m) => ({ default: m.SftpScreen })),
);
const DesktopScreen = lazy(() =>
  withNamespace('connect', () => import('./desktop/DesktopScreen')).then((m) => ({
    default: m.DesktopScreen,
  })),
);

/**
 * The remote-connect area of product §1, §2: the console (SSH and telnet), the file browser
 * (SFTP) and the desktop (VNC), each in a window of its own outside the main app.
 */
export function ConnectApp({ screen, user }: { screen: ConnectScreen; user: CurrentUser | null }) {
  return (
    <Suspense
      fallback={
        <Center mih="100vh">
          <Loader />
        </Center>
      }
    >
      {screen === 'ssh' || screen === 'telnet' ? (
        <TerminalScreen user={user} protocol={screen} />
      ) : screen === 'sftp' ? (
        <SftpScreen user={user} />
      ) : (
        <DesktopScreen user={user} />
      )}
    </Suspense>
  );
}
