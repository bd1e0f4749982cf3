import { loaderWith } from '#src/i18n/i18n';
import { defineFeature } from '#src/lib/define-feature';

/** Every screen, window and form of the feature brings its texts (the 'tags' namespace). */
const load = loaderWith('tags');

const forms = () => load(() => import('./forms/tag-forms'));

/** Tags: their table, a tag's chart and the tag forms (product §2, §3). */
export const tagsFeature = defineFeature({
  pages: {
    'tags.main': () => load(() => import('./TagsPage')).then((m) => m.TagsPage),
    'management.tag_chart': () => load(() => import('./TagChartPage')).then((m) => m.TagChartPage),
  },
  forms: {
    newTag: () => forms().then((m) => m.newTagForm()),
    editTag: () => forms().then((m) => m.editTagForm),
  },
});
