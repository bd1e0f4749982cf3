import type { RouteName } from '@fleetgate/shared/routes';
import { lazy } from 'react';
import { accountFeature } from '../features/account/manifest';
import { approvedDevicesFeature } from '../features/approved-devices/manifest';
import { brandsFeature } from '../features/brands/manifest';
import { changelogFeature } from '../features/changelog/manifest';
import { companiesFeature } from '../features/companies/manifest';
import { devicesFeature } from '../features/devices/manifest';
import { formsRouteFeature } from '../features/forms-route/manifest';
import { impersonationFeature } from '../features/impersonation/manifest';
import { mailFeature } from '../features/mail/manifest';
import { noticesFeature } from '../features/notices/manifest';
import { notificationsFeature } from '../features/notifications/manifest';
import { remoteFeature } from '../features/remote/manifest';
import { resourcesFeature } from '../features/resources/manifest';
import { rolesFeature } from '../features/roles/manifest';
import { tagsFeature } from '../features/tags/manifest';
import { usersFeature } from '../features/users/manifest';
import type { Feature } from '../lib/define-feature';
import type { RegisteredDialog } from '../lib/dialogs/registry';
import type { FormLoader } from '../lib/forms/registry';
import type { PageLoader } from '../lib/routing/page';
import type { PageMap } from './router/RouteScreen';

/**
 * Every feature of the console, by its manifest: the one place app/ learns what exists. A
 * product §3 form whose feature does not exist yet (uploadMulticonfigDoc) is in no manifest:
 * its full-page route answers like any unknown path until the feature lists it.
 */
export const FEATURES = [
  accountFeature,
  approvedDevicesFeature,
  brandsFeature,
  changelogFeature,
  companiesFeature,
  devicesFeature,
  formsRouteFeature,
  impersonationFeature,
  mailFeature,
  noticesFeature,
  notificationsFeature,
  remoteFeature,
  resourcesFeature,
  rolesFeature,
  tagsFeature,
  usersFeature,
] as const;

type Part = 'pages' | 'tabFrames' | 'dialogs' | 'forms';

/** One part of every manifest in one table; a name two features claim is a programming error. */
export function mergeFeatures<T>(features: readonly Feature[], part: Part): Record<string, T> {
  const merged: Record<string, T> = {};
  for (const feature of features) {
    for (const [name, entry] of Object.entries(feature[part] as Readonly<Record<string, T | undefined>>)) {
      if (entry === undefined) continue;
      if (Object.hasOwn(merged, name)) throw new Error(`Two features list the ${part} entry "${name}"`);
      merged[name] = entry;
    }
  }
  return merged;
}

function lazyPages(loaders: Record<string, PageLoader>): PageMap {
  return Object.fromEntries(
    Object.entries(loaders).map(([name, load]) => [name, lazy(async () => ({ default: await load() }))]),
  );
}

type DialogsOf<F> = F extends Feature<infer Dialog, string> ? Dialog : never;

/** The named dialogs of the console (product §2 Dialog system), by name. */
export const DIALOGS = mergeFeatures<RegisteredDialog>(FEATURES, 'dialogs') as Record<
  DialogsOf<(typeof FEATURES)[number]>,
  RegisteredDialog
>;

declare module '../lib/dialogs/registry' {
  interface DialogRegister {
    console: typeof DIALOGS;
  }
}

/** The named forms of the console (product §2 `/forms/:form_name/:id?`, `openForm(name)`). */
export const FORMS = mergeFeatures<FormLoader>(FEATURES, 'forms');

/** Screens by route name. A route without one shows its frame (title, breadcrumbs, help, tabs). */
export const PAGES: PageMap = {
  ...lazyPages(mergeFeatures<PageLoader>(FEATURES, 'pages')),
  notfound: lazy(() => import('./NotFoundPage').then((m) => ({ default: m.NotFoundPage }))),
};

/**
 * Screens that draw the tabs of a route whose own screen does not exist yet: a tab without
 * a screen is drawn by the frame of its nearest ancestor listed here, never by a bare page frame.
 */
export const TAB_FRAMES: PageMap = lazyPages(mergeFeatures<PageLoader>(FEATURES, 'tabFrames'));

/** The route names with a screen (the unit tests compare them with the route table). */
export const PAGE_NAMES = Object.keys(PAGES) as RouteName[];
