import { loaderWith } from '#src/i18n/i18n';
import { defineFeature } from '#src/lib/define-feature';

/** Every screen, window and form of the feature brings its texts (the 'brands' namespace). */
const load = loaderWith('brands');

/** Brands (product §1): the list of brands per host name and the editor with its preview. */
export const brandsFeature = defineFeature({
  pages: {
    'system.brands': () => load(() => import('./BrandsPage')).then((m) => m.BrandsPage),
    'system.brand': () => load(() => import('./BrandEditorPage')).then((m) => m.BrandEditorPage),
  },
});
