import { deriveCapabilities } from '@fleetgate/shared/devices/capabilities';
import { pathOf, ROUTES, type RouteDef } from '@fleetgate/shared/routes';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { brokerPort, companyId, fleetDevices, registerDevices, Simulator } from '../devices/support';
import { createNotice } from '../shell/notice-helpers';
import { pageApi } from './api';
import type { RunningServer } from './server';
import { signedInPage } from './session';

/**
 * A walk through every route of the route table that has a screen, on fixtures that look
 * like the demo: a company tree, simulated devices reporting firmware, IMEI and hostname, a
 * tag, an active notice, and one company renamed to 120 characters. Shared by the specs that
 * judge every screen (the layout at two widths, accessibility in both colour schemes).
 */

// 120 characters, a long unbroken word included: names must wrap or be cut with their text on hover.
export const LONG_NAME =
  'Acme Intercontinental Logistics and Telecommunications Infrastructure Services NorthEasternRegionalOperationsHolding Ltd';

// The first fleet whose first unit has a modem (IMEI) and GPS, so the device page is as full as it gets.
const FLEET = Array.from({ length: 20 }, (_, i) => 41 + i).find((fleet) => {
  const d = fleetDevices(fleet, 1)[0]!;
  const caps = deriveCapabilities({ model: d.model, firmware: d.firmware });
  return caps.has_gps && caps.has_mobile;
})!;
export const DEVICES = fleetDevices(FLEET, 2);

/** Screens that exist today; each must be reached by the walk and draw its screen, not a placeholder. */
export const BUILT = [
  'management.devices',
  'device.activity',
  'device.location',
  'device.data-usage',
  'device.ports',
  'device.metrics.dynamic',
  'device.metrics.mobile-data',
  'device.metrics.io',
  'device.metrics.gps',
  'device.services',
  'device.access',
  'remote.access',
  'remote.info',
  'service.connect-history',
  'users.companies',
  'company.tree',
  'company.devices',
  'company.data-history',
  'company.userstable',
  'company.invitations',
  'company.tags',
  'company.resources.credits',
  'company.resources.codes',
  'company.resources.data-history',
  'users.table',
  'users.invitations',
  'users.roles',
  'users.impersonation-logs',
  'users.move-logs',
  'tags.main',
  'management.tag_chart',
  'services.credit-history',
  'services.credit-codes',
  'services.data-history',
  'services.data-overview',
  'service.add-credits',
  'notices.global',
  'notifications.main',
  'mail.logs',
  'email-smtp',
  'auth.devices',
  'system.brands',
  'system.brand',
  'changelog',
  'form',
];

/** The account app's settings pages (a separate app under /account). */
export const ACCOUNT_PAGES = ['profile', 'security', 'tokens', 'impersonation'];

/** Routes a walk must not enter: signing out ends the walk's session. */
const SKIPPED = new Set(['logout']);

export type FleetIds = { device: number; company: number; tag: number; remote: number };
export type DemoFleet = { ids: FleetIds; sim: Simulator };

/**
 * Builds the fixtures on a fresh server as the super admin and starts the simulated devices;
 * resolves once the first device is online and has reported what its page shows. The caller
 * disposes of `sim`.
 */
export async function setUpDemoFleet(browser: Browser, server: RunningServer): Promise<DemoFleet> {
  const { context, page } = await signedInPage(browser, server.url);
  const acme = await companyId(page, 'Acme');
  const renamed = await pageApi(page, 'PUT', `/api/companies/${acme}`, { name: LONG_NAME });
  if (renamed.status !== 200) throw new Error(`rename failed: ${JSON.stringify(renamed.body)}`);
  const registered = await registerDevices(page, acme, [
    { ...DEVICES[0]!, name: 'Harbour gateway north pier 12' },
    { ...DEVICES[1]!, name: 'Depot 02' },
  ]);
  const device = registered.get(DEVICES[0]!.serial)!;
  const tag = await pageApi<{ data: { id: number } }>(page, 'POST', '/api/tags', {
    company_id: acme,
    name: 'Cold chain',
    color: '#7048e8',
  });
  await pageApi(page, 'POST', '/api/devices/tags', {
    action: 'add',
    tag_id: tag.body.data.id,
    device_id: [...registered.values()],
  });
  // A remote entry of the first device, for remote.info.
  const remote = await pageApi<{ data: { id: number } }>(page, 'POST', '/api/devices/remote-access', {
    device_id: device,
    name: 'Router shell',
    protocol: 'ssh',
  });
  if (remote.status !== 200) throw new Error(`remote entry failed: ${JSON.stringify(remote.body)}`);
  await createNotice(page, {
    type: 'maintenance',
    message: 'Planned maintenance tonight from 22:00 to 23:00',
    enabled_at: new Date().toISOString(),
  });

  // The devices come online and report what the device page shows (firmware, IMEI, hostname).
  const sim = new Simulator({ port: await brokerPort(server), fleet: FLEET, count: 2, company: acme });
  sim.start();
  for (let tries = 0; ; tries++) {
    const response = await pageApi<{
      data: { status: number; firmware: string | null; imei: string | null };
    }>(page, 'GET', `/api/devices/${device}`);
    const d = response.body.data;
    if (d.status === 1 && d.firmware && d.imei) break;
    if (tries > 120) throw new Error(`the simulated device did not report:\n${sim.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await context.close();
  return { ids: { device, company: acme, tag: tag.body.data.id, remote: remote.body.data.id }, sim };
}

/** A route's path with the fixtures' ids in its parameters. */
export function pathFor(route: RouteDef, ids: FleetIds): string {
  if (route.name === 'form') return '/forms/notice';
  const id =
    route.name === 'management.tag_chart'
      ? ids.tag
      : route.name === 'remote.info'
        ? ids.remote
        : route.name.startsWith('device')
          ? ids.device
          : 1;
  return pathOf(route.name, { id, company_id: ids.company, dashboard_id: 1, token: 'e2e-token' });
}

/** Opens a path inside the running console without reloading it. */
export async function visit(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** The route of the table a path belongs to (the most specific pattern that matches it). */
export function routeOfPath(pathname: string): string | undefined {
  const matches = ROUTES.filter((route) => {
    if (!route.path) return false;
    const pattern = route.path
      .split('/')
      .map((part) => (part.startsWith(':') ? (part.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+') : `/${part}`))
      .join('')
      .replace(/^\/\//, '/');
    return new RegExp(`^${pattern}$`).test(pathname);
  });
  // A literal segment beats a parameter (/companies/tree is not /companies/:company_id).
  const params = (path = '') => path.split(':').length;
  return matches.sort((a, b) => params(a.path) - params(b.path))[0]?.name;
}

/**
 * Waits until the screen of the address has drawn (not the previous one: the console
 * stays mounted between visits), redirects included, and nothing is loading any more.
 */
export async function settled(page: Page): Promise<void> {
  await expect
    .poll(
      async () => {
        const pathname = new URL(page.url()).pathname;
        const frame = page.getByTestId('page-frame').first();
        if (await frame.count()) return (await frame.getAttribute('data-route')) === routeOfPath(pathname);
        return (
          (await page
            .locator(
              '[data-testid="screen-unavailable"], [data-testid="maintenance-page"], [data-testid="route-error"], main, h1',
            )
            .count()) > 0
        );
      },
      { timeout: 10_000, interval: 100 },
    )
    .toBe(true);
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            document.querySelectorAll(
              '.mantine-Loader-root, .mantine-Skeleton-root[data-visible], [aria-busy="true"]',
            ).length,
        ),
      { timeout: 15_000, interval: 100 },
    )
    .toBe(0);
  // Charts and maps size themselves a frame after their data arrives: two frames later.
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Whether the visible frame of a route shows its screen: 'drawn', or what is seen instead
 * (no frame of that route, or the 'not available yet' panel in it).
 */
export function screenState(page: Page, name: string): Promise<string> {
  return page.evaluate((route) => {
    const shown = (el: Element) =>
      (el as HTMLElement).offsetParent !== null || el.getClientRects().length > 0;
    const frames = [...document.querySelectorAll('[data-testid="page-frame"]')].filter(shown);
    const frame = frames.find((f) => f.getAttribute('data-route') === route);
    if (!frame)
      return `no visible frame of ${route} (frames: ${frames.map((f) => f.getAttribute('data-route')).join(', ') || 'none'})`;
    const placeholder = [...frame.querySelectorAll('[data-testid="screen-unavailable"]')].some(shown);
    return placeholder ? `the 'not available yet' panel inside ${route}` : 'drawn';
  }, name);
}

/** A screen the walk reached: the route it asked for, the screen's own name and where it landed. */
export type WalkStop = { route: RouteDef; name: string; landed: string };

/**
 * Visits every route of the table that has a path (in the running console, signed in), waits
 * for each screen to draw and hands it to `check`, which returns what is wrong or null. A
 * redirecting route lands on a screen the walk checks once, under the screen's own name. A
 * built screen must draw its own body, not the 'not available yet' panel. `where` ends each
 * failure's first line ('at 1440 px').
 */
export async function walkRoutes(
  page: Page,
  ids: FleetIds,
  where: string,
  check: (stop: WalkStop) => Promise<string | null>,
): Promise<{ failures: string[]; drawn: Set<string> }> {
  const failures: string[] = [];
  const drawn = new Set<string>();
  const seen = new Set<string>();

  async function stopAt(route: RouteDef): Promise<void> {
    const path = pathFor(route, ids);
    await visit(page, path);
    try {
      await settled(page);
    } catch {
      failures.push(`${route.name} (${path}) ${where}: nothing was drawn`);
      return;
    }
    const landed = new URL(page.url()).pathname;
    if (seen.has(landed)) return;
    seen.add(landed);
    const frame = page.getByTestId('page-frame').first();
    const name = ((await frame.count()) ? await frame.getAttribute('data-route') : null) ?? route.name;
    // Judged on what is visible: a screen that suspends keeps its previous body, hidden, a moment.
    if (BUILT.includes(name)) {
      const state = () => screenState(page, name);
      const drew = await expect
        .poll(state, { timeout: 10_000, interval: 100 })
        .toBe('drawn')
        .then(
          () => true,
          () => false,
        );
      if (drew) drawn.add(name);
      else failures.push(`${name} (${landed}) ${where}: ${await state()}`);
    }
    const problem = await check({ route, name, landed });
    if (problem) failures.push(problem);
  }

  for (const route of ROUTES) {
    if (route.path && !SKIPPED.has(route.name)) await stopAt(route);
  }
  // A screen reached through a redirect is at times named by the frame it replaces, a moment
  // late: a built screen not yet seen drawn is visited once more at its own address.
  for (const name of BUILT.filter((built) => !drawn.has(built))) {
    const route = ROUTES.find((r) => r.name === name);
    if (!route?.path) continue;
    seen.delete(pathFor(route, ids));
    await stopAt(route);
  }
  return { failures, drawn };
}
