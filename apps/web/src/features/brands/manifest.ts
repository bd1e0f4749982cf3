import { defineFeature } from '#src/lib/define-feature';

/** Brands (product §1): the list of brands per host name and the editor with its preview. */
export const brandsFeature = defineFeature({
  pages: {
    'system.brands': () => import('./BrandsPage').then((m) => m.BrandsPage),
    'system.brand': () => import('./BrandEditorPage').then((m) => m.BrandEditorPage),
  },
});
