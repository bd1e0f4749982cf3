import { defineFeature } from '#src/lib/define-feature';

/** The full-page form of product §2, `/forms/:form_name/:id?`, for any form a manifest names. */
export const formsRouteFeature = defineFeature({
  pages: { form: () => import('./FormRoutePage').then((m) => m.FormRoutePage) },
});
