import type { BrandSettings } from '@fleetgate/shared/brand';
import { ROUTES } from '@fleetgate/shared/routes';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { BrowserRouter, type RouteObject, useLocation, useNavigate, useRoutes } from 'react-router';
import { FirstPermitted } from '../components/page/FirstPermitted';
import { HelpProvider } from '../components/page/help-context';
import { MaintenancePage } from '../components/page/MaintenancePage';
import { RouteBoundary } from '../components/page/RouteBoundary';
import { provideDialogs } from '../lib/dialogs/registry';
import { WindowsProvider } from '../lib/dialogs/WindowsProvider';
import { provideForms } from '../lib/forms/registry';
import { cancelPending } from '../lib/http/client';
import { firstPermittedPath } from '../lib/routing/guards';
import { OFFLINE_PATH } from '../lib/routing/offline-path';
import { followRouteLinks } from '../lib/routing/route-links';
import { SessionProvider } from '../lib/session/session-context';
import { DIALOGS, FORMS, PAGES, TAB_FRAMES } from './features';
import { Layout } from './layout/Layout';
import { OfflinePage } from './OfflinePage';
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
      element: (
        <RouteBoundary inPage={!route.standalone}>
          <RouteScreen route={route} pages={pages} frames={frames} />
        </RouteBoundary>
      ),
    };
    (route.standalone ? standalone : inLayout).push(object);
  }
  return [
    {
      path: OFFLINE_PATH,
      element: (
        <RouteBoundary>
          <OfflinePage />
        </RouteBoundary>
      ),
    },
    ...standalone,
    {
      element: (
        <RouteBoundary>
          <HelpProvider>
            <WindowsProvider>
              <Layout />
            </WindowsProvider>
          </HelpProvider>
        </RouteBoundary>
      ),
      children: [
        ...inLayout,
        {
          path: '*',
          element: (
            <RouteBoundary inPage>
              <FirstPermitted />
            </RouteBoundary>
          ),
        },
      ],
    },
  ];
}

/**
 * The console's routes, drawn by the router's declarative API: the route table needs no
 * data loading of the router's own (each screen asks for its data), and the data router
 * weighs twice as much in the first load (docs/decisions.md, Console first load).
 */
export function ConsoleRoutes({ routes }: { routes: RouteObject[] }) {
  const navigate = useNavigate();
  // The plain links of tables' cells go through the router (lib/routing/route-links.ts).
  useEffect(() => followRouteLinks({ navigate }), [navigate]);
  // product §7 General: pending requests are cancelled on route change ('Route changed'). A
  // layout effect runs before the new screen's own effects start its requests; requests made
  // once the address had changed (after a navigate() in the same handler) are the new page's.
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useLayoutEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    cancelPending('Route changed', pathname);
  }, [pathname]);
  return useRoutes(routes);
}

/** The console for a signed-in user. */
export function MainApp({ user, brand }: { user: CurrentUser; brand: BrandSettings }) {
  const { t } = useTranslation('shell');
  const routes = useMemo(() => {
    // Every manifest's dialogs and forms answer by name from the first screen on, whichever it is.
    provideDialogs(DIALOGS);
    provideForms(FORMS);
    return buildRoutes(PAGES, TAB_FRAMES);
  }, []);
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
      <BrowserRouter>
        <ConsoleRoutes routes={routes} />
      </BrowserRouter>
    </SessionProvider>
  );
}
