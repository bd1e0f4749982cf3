import type { RouteName } from '@fleetgate/shared/routes';
import type { RegisteredDialog } from './dialogs/registry';
import type { FormLoader } from './forms/registry';
import type { PageLoader } from './routing/page';

/** Screens by route name: a name that is not a route of the table does not compile. */
export type FeaturePages = { readonly [Name in RouteName]?: PageLoader };

/**
 * What a feature adds to the console, all of it loaded on first use: the screens of its routes,
 * its named dialogs (product §2 Dialog system) and its named forms (product §2 `/forms/:form_name`).
 */
export type Feature<Dialog extends string = string, Form extends string = string> = {
  readonly pages: FeaturePages;
  /**
   * The screen that draws those tabs of a route that have no screen of their own yet: the
   * device's header and actions above a 'not available yet' panel, rather than a bare frame.
   */
  readonly tabFrames: FeaturePages;
  readonly dialogs: Readonly<Record<Dialog, RegisteredDialog>>;
  readonly forms: Readonly<Record<Form, FormLoader>>;
};

/**
 * A feature's manifest, `features/<area>/manifest.ts`: the one list app/ reads to route to its
 * screens and open its dialogs and forms by name. Nothing of a feature registers itself.
 */
export function defineFeature<Dialog extends string = never, Form extends string = never>(manifest: {
  pages?: FeaturePages;
  tabFrames?: FeaturePages;
  dialogs?: Record<Dialog, RegisteredDialog>;
  forms?: Record<Form, FormLoader>;
}): Feature<Dialog, Form> {
  return {
    pages: manifest.pages ?? {},
    tabFrames: manifest.tabFrames ?? {},
    dialogs: manifest.dialogs ?? ({} as Record<Dialog, RegisteredDialog>),
    forms: manifest.forms ?? ({} as Record<Form, FormLoader>),
  };
}
