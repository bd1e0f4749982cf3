import { loaderWith } from '#src/i18n/i18n';
import { defineFeature } from '#src/lib/define-feature';

/** Every screen, window and form of the feature brings its texts (the 'changelog' namespace). */
const load = loaderWith('changelog');

/** What changed in each version (product §2 Header: the changelog link). */
export const changelogFeature = defineFeature({
  pages: { changelog: () => load(() => import('./ChangelogPage')).then((m) => m.ChangelogPage) },
});
