import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MaintenancePage } from './app/MaintenancePage';
import { Providers } from './app/providers';
import { initSession, loginUrl } from './app/session-init';
import { AccountApp } from './features/account/AccountApp';
import { initI18n } from './i18n/i18n';

function render(node: ReactNode) {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>{node}</Providers>
    </StrictMode>,
  );
}

/** App start of spec §4: offline check, service workers gone, session, then mount. */
async function boot(): Promise<void> {
  if (!navigator.onLine) {
    window.location.replace('/offline.html');
    return;
  }
  if ('serviceWorker' in navigator) {
    for (const registration of await navigator.serviceWorker.getRegistrations())
      void registration.unregister();
  }
  await initI18n();

  if (window.location.pathname.startsWith('/account')) {
    render(<AccountApp />);
    return;
  }
  const result = await initSession();
  switch (result.kind) {
    case 'login':
      window.location.replace(loginUrl());
      return;
    case 'maintenance':
    case 'notice':
      render(<MaintenancePage message={result.message} />);
      return;
    case 'ready': {
      const { MainApp } = await import('./app/MainApp');
      render(<MainApp user={result.user} />);
    }
  }
}

void boot();
