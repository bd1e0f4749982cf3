import { defineFeature } from '#src/lib/define-feature';

/** Global notices: their administration and the notice form (product §2 System). */
export const noticesFeature = defineFeature({
  pages: { 'notices.global': () => import('./NoticesAdminPage').then((m) => m.NoticesAdminPage) },
  forms: { notice: () => import('./forms/notice-form').then((m) => m.noticeForm) },
});
