import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { CONNECT_SCREENS } from '@fleetgate/shared/routes';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadBrand } from './app/brand';
import { MaintenancePage } from './app/MaintenancePage';
import { OFFLINE_PATH, OfflinePage } from './app/OfflinePage';
import { Providers } from './app/providers';
import { initSession, loginUrl } from './app/session-init';
import { initI18n } from './i18n/i18n';
import { userStorage } from './lib/storage/user-storage';

function render(node: ReactNode) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>{node}</Providers>
    </StrictMode>,
  );
}

/** The connect screen a path selects instead of the main app (product §2), if any. */
function connectScreen(pathname: string) {
  return (Object.entries(CONNECT_SCREENS) as [keyof typeof CONNECT_SCREENS, string][]).find(([, path]) =>
    pathname.includes(path),
  )?.[0];
}

/** App start of product §4: offline check, service workers gone, session, then mount. */
async function boot(): Promise<void> {
  if ('serviceWorker' in navigator) {
    for (const registration of await navigator.serviceWorker.getRegistrations())
      void registration.unregister();
  }
  await initI18n();
  // The offline page is rendered by the console itself: an offline browser cannot fetch one.
  if (!navigator.onLine || window.location.pathname === OFFLINE_PATH) {
    window.history.replaceState(null, '', OFFLINE_PATH);
    render(<OfflinePage />);
    return;
  }
  const { pathname, search } = window.location;

  if (pathname.startsWith('/account')) {
    const { AccountApp } = await import('./features/account/AccountApp');
    render(<AccountApp />);
    return;
  }
  if (pathname === '/404') {
    const { NotFoundPage } = await import('./app/NotFoundPage');
    render(<NotFoundPage />);
    return;
  }
  const connect = connectScreen(pathname);
  // product §2: the ssh and desktop launchers with a key in the query skip authentication.
  if (connect && (connect === 'ssh' || connect === 'desktop') && new URLSearchParams(search).has('key')) {
    const { ConnectApp } = await import('./features/connect/ConnectApp');
    render(<ConnectApp screen={connect} user={null} />);
    return;
  }

  const [result, brand] = await Promise.all([initSession(), loadBrand()]);
  switch (result.kind) {
    case 'login':
      window.location.replace(loginUrl());
      return;
    case 'maintenance':
      render(<MaintenancePage message={result.message} />);
      return;
    case 'notice': {
      // product §6, §8 Session: the blocking conditions show their notice screen.
      const { NoticeScreen } = await import('./features/mfa/NoticeScreen');
      render(<NoticeScreen code={result.code} message={result.message} email={result.email} />);
      return;
    }
    case 'ready': {
      if (connect) {
        const { ConnectApp } = await import('./features/connect/ConnectApp');
        render(<ConnectApp screen={connect} user={result.user} />);
        return;
      }
      await Promise.race([userStorage.load(), new Promise((resolve) => setTimeout(resolve, 3000))]);
      const [{ MainApp }, { AccountGates }] = await Promise.all([
        import('./app/MainApp'),
        import('./features/account-settings/components/AccountGates'),
      ]);
      // product §4: the data agreement and 'Please enter your email address' come before work.
      render(
        <>
          <MainApp user={result.user} brand={brand} />
          <AccountGates user={result.user} brand={brand} />
        </>,
      );
    }
  }
}

void boot();
