import { defineFeature } from '#src/lib/define-feature';

const forms = () => import('./forms/tag-forms');

/** Tags: their table, a tag's chart and the tag forms (product §2, §3). */
export const tagsFeature = defineFeature({
  pages: {
    'tags.main': () => import('./TagsPage').then((m) => m.TagsPage),
    'management.tag_chart': () => import('./TagChartPage').then((m) => m.TagChartPage),
  },
  forms: {
    newTag: () => forms().then((m) => m.newTagForm()),
    editTag: () => forms().then((m) => m.editTagForm),
  },
});
