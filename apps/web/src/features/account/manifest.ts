import { defineFeature } from '#src/lib/define-feature';

/**
 * The console's side of the account: signing out. Signing in, invitations and the account
 * settings are the account app's (/account/*, AccountApp), outside the console's route table.
 */
export const accountFeature = defineFeature({
  pages: { logout: () => import('./LogoutPage').then((m) => m.LogoutPage) },
});
