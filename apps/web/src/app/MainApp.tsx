import type { BrandSettings } from '@fleetgate/shared/brand';
import { ROUTES } from '@fleetgate/shared/routes';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type RouteObject, RouterProvider } from 'react-router';
import { FirstPermitted } from '../components/page/FirstPermitted';
import { HelpProvider } from '../components/page/help-context';
import { MaintenancePage } from '../components/page/MaintenancePage';
import { provideDialogs } from '../lib/dialogs/registry';
import { WindowsProvider } from '../lib/dialogs/WindowsProvider';
import { provideForms } from '../lib/forms/registry';
import { cancelPending } from '../lib/http/client';
import { firstPermittedPath } from '../lib/routing/guards';
import { followRouteLinks } from '../lib/routing/route-links';
import { SessionProvider } from '../lib/session/session-context';
import { DIALOGS, FORMS, PAGES, TAB_FRAMES } from './features';
import { Layout } from './layout/Layout';
import { OFFLINE_PATH, OfflinePage } from './OfflinePage';
import { RouteError } from './router/RouteError';
import { type PageMap, RouteScreen } from './router/RouteScreen';

/** The route table of product §2 as react-router routes: standalone ones outside the chrome. */
export function buildRoutes(pages: PageMap, frames: PageMap): RouteObject[] {
  const inLayout: RouteObject[] = [];
  const standalone: RouteObject[] = [];
  for (const route of ROUTES) {
    if (!route.path) continue;
    // Every route has its error boundary: a screen that fails shows the message, never a blank page.
    const object: RouteObject = {
      path: route.path,
      handle: { name: route.name },
      element: <RouteScreen route={route} pages={pages} frames={frames} />,
      errorElement: <RouteError inPage={!route.standalone} />,
    };
    (route.standalone ? standalone : inLayout).push(object);
  }
  return [
    { path: OFFLINE_PATH, element: <OfflinePage />, errorElement: <RouteError /> },
    ...standalone,
    {
      element: (
        <HelpProvider>
          <WindowsProvider>
            <Layout />
          </WindowsProvider>
        </HelpProvider>
      ),
      errorElement: <RouteError />,
      children: [
        ...inLayout,
        { path: '*', element: <FirstPermitted />, errorElement: <RouteError inPage /> },
      ],
    },
  ];
}

/** The console for a signed-in user. */
export function MainApp({ user, brand }: { user: CurrentUser; brand: BrandSettings }) {
  const { t } = useTranslation('shell');
  const router = useMemo(() => {
    // Every manifest's dialogs and forms answer by name from the first screen on, whichever it is.
    provideDialogs(DIALOGS);
    provideForms(FORMS);
    const created = createBrowserRouter(buildRoutes(PAGES, TAB_FRAMES));
    // product §7 General: pending requests are cancelled on route change ('Route changed').
    let path = created.state.location.pathname;
    created.subscribe((state) => {
      if (state.location.pathname === path) return;
      path = state.location.pathname;
      cancelPending('Route changed');
    });
    return created;
  }, []);
  // The plain links of tables' cells go through the router (lib/routing/route-links.ts).
  useEffect(() => followRouteLinks(router), [router]);
  if (firstPermittedPath({ permissions: user.permissions, disabledRoutes: brand.disabled_routes }) === null) {
    return (
      <MaintenancePage
        title={t('maintenance.accessDenied')}
        body={null}
        message={t('maintenance.noViewPermissions')}
        retry={false}
      />
    );
  }
  return (
    <SessionProvider user={user} brand={brand}>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}
