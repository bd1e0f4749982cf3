import { defineFeature } from '#src/lib/define-feature';

/** The notifications page behind the bell (product §2 Header widgets). */
export const notificationsFeature = defineFeature({
  pages: {
    'notifications.main': () => import('./NotificationsPage').then((m) => m.NotificationsPage),
  },
});
