import { defineFeature } from '#src/lib/define-feature';

/** Impersonation: its logs and the page that confirms access to an account (product §2, §6). */
export const impersonationFeature = defineFeature({
  pages: {
    'users.impersonation-logs': () => import('./ImpersonationLogsPage').then((m) => m.ImpersonationLogsPage),
    'impersonation.access': () => import('./ConfirmAccessPage').then((m) => m.ConfirmAccessPage),
  },
});
