import { pathOf, type RouteDef, routeChain } from '@fleetgate/shared/routes';
import { Center, Loader } from '@mantine/core';
import { type ComponentType, type LazyExoticComponent, Suspense } from 'react';
import { Navigate, useParams } from 'react-router';
import { PageFrame } from '../layout/PageFrame';
import { OFFLINE_PATH } from '../OfflinePage';
import { useAccess } from './access';
import { canEnter, firstPermittedPath, resolveRedirect } from './guards';

export type PageProps = { route: RouteDef; chain: RouteDef[]; params: Record<string, string | undefined> };
export type PageMap = Partial<
  Record<string, LazyExoticComponent<ComponentType<PageProps>> | ComponentType<PageProps>>
>;

/** Sends the user to the first page they may see (spec §5); the main app handles "none". */
export function FirstPermitted() {
  const path = firstPermittedPath(useAccess());
  return <Navigate to={path ?? '/404'} replace />;
}

/**
 * One route of the table: the guard of spec §5 (permission and brand), the route's
 * redirect, then its screen, or its frame while its screen belongs to a later issue.
 */
export function RouteScreen({ route, pages }: { route: RouteDef; pages: PageMap }) {
  const access = useAccess();
  const params = useParams();
  // spec §5 route guard: offline → the offline page (a lazy screen could not load anyway).
  if (!navigator.onLine) return <Navigate to={OFFLINE_PATH} replace />;
  if (!canEnter(route, access)) return <FirstPermitted />;
  if (route.redirect) {
    const target = resolveRedirect(route, access);
    return target ? <Navigate to={pathOf(target.name, params)} replace /> : <FirstPermitted />;
  }
  const Page = pages[route.name];
  const chain = routeChain(route.name);
  if (!Page) return route.standalone ? null : <PageFrame chain={chain} params={params} />;
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
