import { pathOf, type RouteDef, routeChain } from '@fleetgate/shared/routes';
import { Center, Loader } from '@mantine/core';
import { type ComponentType, type LazyExoticComponent, Suspense } from 'react';
import { Navigate, useParams } from 'react-router';
import { PageFrame } from '../layout/PageFrame';
import { UnavailablePanel } from '../layout/UnavailablePanel';
import { OFFLINE_PATH } from '../OfflinePage';
import { useAccess } from './access';
import { canEnter, firstPermittedPath, resolveRedirect } from './guards';
import { StandaloneUnavailable } from './StandaloneUnavailable';
import { TAB_FRAMES } from './tab-frames';

export type PageProps = { route: RouteDef; chain: RouteDef[]; params: Record<string, string | undefined> };
export type PageMap = Partial<
  Record<string, LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>>
>;

/** Sends the user to the first page they may see (product §5); the main app handles "none". */
export function FirstPermitted() {
  const path = firstPermittedPath(useAccess());
  return <Navigate to={path ?? '/404'} replace />;
}

/** The frame that draws a route without a screen of its own: its nearest ancestor's in TAB_FRAMES. */
function tabFrameOf(chain: readonly RouteDef[]) {
  for (const route of [...chain].reverse()) {
    const frame = TAB_FRAMES[route.name];
    if (frame) return frame;
  }
  return undefined;
}

/**
 * One route of the table: the guard of product §5 (permission and brand), the route's
 * redirect, then its screen. A route whose screen belongs to a later issue shows where it
 * is (its parent's frame, or the page frame) and a 'not available yet' panel, never a
 * blank page.
 */
export function RouteScreen({ route, pages }: { route: RouteDef; pages: PageMap }) {
  const access = useAccess();
  const params = useParams();
  // product §5 route guard: offline → the offline page (a lazy screen could not load anyway).
  if (!navigator.onLine) return <Navigate to={OFFLINE_PATH} replace />;
  if (!canEnter(route, access)) return <FirstPermitted />;
  if (route.redirect) {
    const target = resolveRedirect(route, access);
    return target ? <Navigate to={pathOf(target.name, params)} replace /> : <FirstPermitted />;
  }
  const chain = routeChain(route.name);
  const Page = pages[route.name] ?? tabFrameOf(chain);
  if (!Page) {
    if (route.standalone) return <StandaloneUnavailable route={route} />;
    return (
      <PageFrame chain={chain} params={params}>
        <UnavailablePanel tab={Boolean(route.tab)} />
      </PageFrame>
    );
  }
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader />
        </Center>
      }
    >
      <Page route={route} chain={chain} params={params} />
    </Suspense>
  );
}
