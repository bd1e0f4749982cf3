import { defineFeature } from '#src/lib/define-feature';

/** What changed in each version (product §2 Header: the changelog link). */
export const changelogFeature = defineFeature({
  pages: { changelog: () => import('./ChangelogPage').then((m) => m.ChangelogPage) },
});
