import { posix } from 'node:path';
import { isRouteName } from '@fleetgate/shared/routes';
import { describe, expect, it } from 'vitest';
import { FEATURES, mergeFeatures, PAGE_NAMES, TAB_FRAMES } from './features';

/** Every manifest's text, by path, and the modules each one loads (`import('./x')`, resolved). */
const manifestSources = import.meta.glob<string>('../features/*/manifest.ts', {
  query: '?raw',
  import: 'default',
  eager: true,
});
const accountAppSource = import.meta.glob<string>('../features/account/AccountApp.tsx', {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** The modules a source file names, as paths like `../features/devices/table/DevicesPage`. */
function modulesNamedIn(path: string, source: string): string[] {
  const specifiers = [...source.matchAll(/(?:import\(\s*|from\s+)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((specifier) => posix.join(posix.dirname(path), specifier));
}

const inManifests = new Set(
  Object.entries(manifestSources).flatMap(([path, source]) => modulesNamedIn(path, source)),
);
// The account side (/account/*) is its own app with its own router, outside the console's route table.
const inAccountApp = new Set(
  Object.entries(accountAppSource).flatMap(([path, source]) => modulesNamedIn(path, source)),
);

const withoutExtension = (path: string) => path.replace(/\.tsx?$/, '');
const files = (glob: Record<string, unknown>) => Object.keys(glob).map(withoutExtension);

const SCREENS = files(import.meta.glob(['../features/**/*Page.tsx', '!../features/**/*.test.tsx']));
const DIALOG_FILES = files(
  import.meta.glob(['../features/**/*Dialog{,s}.tsx', '!../features/**/*.test.tsx']),
);
const FORM_FILES = files(import.meta.glob(['../features/*/forms/*.{ts,tsx}', '!../features/**/*.test.*']));

/**
 * Dialog files that are not named dialogs: the account menu's revoke confirmation is a modal of
 * the header (not a window), and 'impersonate' is still opened with its component by the
 * impersonation logs page.
 */
const NOT_NAMED_DIALOGS = [
  '../features/account-widget/components/RevokeImpersonationDialog',
  '../features/impersonation/components/ImpersonateDialog',
];

describe('feature manifests (docs/adding-a-feature.md, Console)', () => {
  it('app/ reads every manifest there is', () => {
    expect(FEATURES).toHaveLength(Object.keys(manifestSources).length);
  });

  it('finds the screens, dialogs and forms it checks', () => {
    expect(SCREENS).toContain('../features/devices/table/DevicesPage');
    expect(DIALOG_FILES).toContain('../features/devices/components/DeviceActionDialog');
    expect(FORM_FILES).toContain('../features/devices/forms/device-forms');
  });

  it('lists every screen of a feature in its manifest (or the account app routes it)', () => {
    const missing = SCREENS.filter((file) => !inManifests.has(file) && !inAccountApp.has(file));
    expect(missing).toEqual([]);
  });

  it('lists every dialog component of a feature in its manifest', () => {
    const missing = DIALOG_FILES.filter(
      (file) => !inManifests.has(file) && !NOT_NAMED_DIALOGS.includes(file),
    );
    expect(missing).toEqual([]);
  });

  it('lists every form definitions file of a feature in its manifest', () => {
    const missing = FORM_FILES.filter((file) => !inManifests.has(file));
    expect(missing).toEqual([]);
  });

  it('keys screens and tab frames by routes of the table', () => {
    const names = FEATURES.flatMap((feature) => [
      ...Object.keys(feature.pages),
      ...Object.keys(feature.tabFrames),
    ]);
    expect(names.filter((name) => !isRouteName(name))).toEqual([]);
    expect(PAGE_NAMES.filter((name) => !isRouteName(name))).toEqual([]);
    expect(Object.keys(TAB_FRAMES)).toEqual(['device.info']);
  });

  it('never lets two features claim the same route, dialog or form name', () => {
    for (const part of ['pages', 'tabFrames', 'dialogs', 'forms'] as const) {
      expect(() => mergeFeatures(FEATURES, part)).not.toThrow();
    }
    expect(() => mergeFeatures([FEATURES[0], FEATURES[0]], 'pages')).toThrow(/logout/);
  });

  it('loads the component of every named dialog', async () => {
    const dialogs = mergeFeatures<{ load(): Promise<unknown> }>(FEATURES, 'dialogs');
    expect(Object.keys(dialogs).length).toBeGreaterThan(10);
    for (const [name, dialog] of Object.entries(dialogs)) {
      expect(typeof (await dialog.load()), name).toBe('function');
    }
  });
});
