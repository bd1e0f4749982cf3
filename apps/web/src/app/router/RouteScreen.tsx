import { pathOf, type RouteDef, type RouteName, routeChain } from '@fleetgate/shared/routes';
import { Center, Loader } from '@mantine/core';
import { type ComponentType, type LazyExoticComponent, Suspense } from 'react';
import { Navigate, useParams } from 'react-router';
import { FirstPermitted } from '#src/components/page/FirstPermitted';
import { PageFrame } from '#src/components/page/PageFrame';
import { UnavailablePanel } from '#src/components/page/UnavailablePanel';
import { useAccess } from '#src/lib/routing/access';
import { canEnter, resolveRedirect } from '#src/lib/routing/guards';
import { OFFLINE_PATH } from '#src/lib/routing/offline-path';
import type { PageProps } from '#src/lib/routing/page';
import { StandaloneUnavailable } from './StandaloneUnavailable';

/** Screens by route name (app/features.ts assembles them from the feature manifests). */
export type PageMap = Partial<
  Record<RouteName, LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>>
>;

/** The frame that draws a route without a screen of its own: its nearest ancestor's among the tab frames. */
function tabFrameOf(chain: readonly RouteDef[], frames: PageMap) {
  for (const route of [...chain].reverse()) {
    const frame = frames[route.name];
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
export function RouteScreen({ route, pages, frames }: { route: RouteDef; pages: PageMap; frames: PageMap }) {
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
  const Page = pages[route.name] ?? tabFrameOf(chain, frames);
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
