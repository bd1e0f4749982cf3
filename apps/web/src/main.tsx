import './lib/zod-jitless';
// Mantine's base sheets; each component's sheet comes with the component (vite.config.ts).
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import { BRAND_DEFAULTS, type BrandSettings } from '@fleetgate/shared/brand';
import { PRODUCT_XSRF_COOKIE, XSRF_COOKIE } from '@fleetgate/shared/constants';
import { CONNECT_SCREENS } from '@fleetgate/shared/routes';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { OfflinePage } from './app/OfflinePage';
import { Providers } from './app/providers';
import { MaintenancePage } from './components/page/MaintenancePage';
import { gatesApply } from './features/account-settings/components/gates-apply';
import { initI18n } from './i18n/i18n';
import { loadBrand, showBrandInDocument } from './lib/brand/brand';
import { readCookie } from './lib/cookies';
import { OFFLINE_PATH } from './lib/routing/offline-path';
import { initSession, loginUrl } from './lib/session/session-init';
import { userStorage } from './lib/storage/user-storage';

function render(node: ReactNode, brand: BrandSettings = BRAND_DEFAULTS) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers brand={brand}>{node}</Providers>
    </StrictMode>,
  );
}

/** The connect screen a path selects instead of the main app (product §2), if any. */
function connectScreen(pathname: string) {
  return (Object.entries(CONNECT_SCREENS) as [keyof typeof CONNECT_SCREENS, string][]).find(([, path]) =>
    pathname.includes(path),
  )?.[0];
}

/** The signed-in console's code: the shell with its routes. */
function loadConsole() {
  return import('./app/MainApp');
}

/** App start of product §4: offline check, service workers gone, session, then mount. */
async function boot(): Promise<void> {
  if ('serviceWorker' in navigator) {
    for (const registration of await navigator.serviceWorker.getRegistrations())
      void registration.unregister();
  }
  // Every page but the offline one wears the brand of this host name (product §1): asked for
  // at once, beside the language and the session.
  const brandLoad = navigator.onLine ? loadBrand() : Promise.resolve(BRAND_DEFAULTS);
  void brandLoad.then(showBrandInDocument);
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
    render(<AccountApp />, await brandLoad);
    return;
  }
  if (pathname === '/404') {
    const { NotFoundPage } = await import('./app/NotFoundPage');
    render(<NotFoundPage />, await brandLoad);
    return;
  }
  const connect = connectScreen(pathname);
  // A session leaves its XSRF cookie readable: then the console's code is fetched at once,
  // beside the user, brand and storage requests, instead of after them.
  const signedIn = readCookie(PRODUCT_XSRF_COOKIE) ?? readCookie(XSRF_COOKIE);
  const consoleCode = signedIn && !connect ? loadConsole() : undefined;
  consoleCode?.catch(() => {});
  // product §2: the ssh and desktop launchers with a key in the query skip authentication.
  if (connect && (connect === 'ssh' || connect === 'desktop') && new URLSearchParams(search).has('key')) {
    const { ConnectApp } = await import('./features/connect/ConnectApp');
    render(<ConnectApp screen={connect} user={null} />, await brandLoad);
    return;
  }

  const [result, brand] = await Promise.all([initSession(), brandLoad]);
  switch (result.kind) {
    case 'login':
      window.location.replace(loginUrl());
      return;
    case 'maintenance':
      render(<MaintenancePage message={result.message} />, brand);
      return;
    case 'notice': {
      // product §6, §8 Session: the blocking conditions show their notice screen.
      const { NoticeScreen } = await import('./features/mfa/NoticeScreen');
      render(<NoticeScreen code={result.code} message={result.message} email={result.email} />, brand);
      return;
    }
    case 'ready': {
      if (connect) {
        const { ConnectApp } = await import('./features/connect/ConnectApp');
        render(<ConnectApp screen={connect} user={result.user} />, brand);
        return;
      }
      await Promise.race([userStorage.load(), new Promise((resolve) => setTimeout(resolve, 3000))]);
      // product §4: the data agreement and 'Please enter your email address' come before work;
      // their code comes only for a user they apply to.
      const [{ MainApp }, gates] = await Promise.all([
        consoleCode ?? loadConsole(),
        gatesApply(result.user) ? import('./features/account-settings/components/AccountGates') : undefined,
      ]);
      render(
        <>
          <MainApp user={result.user} brand={brand} />
          {gates && <gates.AccountGates user={result.user} brand={brand} />}
        </>,
        brand,
      );
    }
  }
}

void boot();
