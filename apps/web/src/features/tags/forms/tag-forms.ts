import {
  editTagBodySchema,
  newTagBodySchema,
  TAG_DEFAULT_COLOR,
  TAG_DESCRIPTION_MAX,
  TAG_NAME_MAX,
  type TagJson,
  tagCompanySchema,
} from '@fleetgate/shared/schemas/tags';
import { type CompanyOption, fetchCompanyOptions } from '#src/features/companies/api/companies';
import type { FieldDef, FormDefinition } from '#src/lib/forms/types';
import { tagKeys } from '../api/tags';

/** The fields the create and edit windows share (CONVENTIONS example 10). */
const TAG_FIELDS: readonly FieldDef[] = [
  {
    key: 'name',
    label: 'field.name',
    type: 'text',
    required: true,
    maxlength: TAG_NAME_MAX,
    hint: 'field.nameHint',
  },
  { key: 'description', label: 'field.description', type: 'textarea', maxlength: TAG_DESCRIPTION_MAX },
  { key: 'color', label: 'field.color', type: 'color', required: true },
];

/**
 * The companies a tag may go to. Callers who see one company (no view_companies, or a
 * company without subsidiaries) get none: the server puts the tag in their own company.
 */
async function companyChoices(): Promise<CompanyOption[]> {
  try {
    const options = await fetchCompanyOptions();
    return options.length > 1 ? options : [];
  } catch {
    return [];
  }
}

/** newTag (product §3: POST /tags; company_id, name (required), description, color). */
export async function newTagForm(preset: { companyId?: number } = {}): Promise<FormDefinition> {
  const companies = await companyChoices();
  const companyField: FieldDef[] = companies.length
    ? [{ key: 'company_id', label: 'field.company', type: 'select', required: true, options: companies }]
    : [];
  return {
    name: 'newTag',
    ns: 'tags',
    title: { create: 'form.newTitle' },
    endpoint: '/tags',
    // A caller who may choose the company must: the field says so, and an empty choice would
    // put the tag in the caller's own company without a word.
    schema: companies.length ? newTagBodySchema.extend({ company_id: tagCompanySchema }) : newTagBodySchema,
    fields: [...companyField, ...TAG_FIELDS],
    defaults: {
      ...(companies.length
        ? { company_id: preset.companyId === undefined ? undefined : String(preset.companyId) }
        : {}),
      name: '',
      description: '',
      color: TAG_DEFAULT_COLOR,
    },
    permission: 'manage_tags',
    invalidate: [tagKeys.all],
    result: { item: 'result.item', created: 'result.created' },
    fallbackPath: '/tags',
  };
}

/** Edit tag: name, description and colour; a tag stays in its company. */
export const editTagForm: FormDefinition = {
  name: 'editTag',
  ns: 'tags',
  title: { create: 'form.editTitle', edit: 'form.editTitle' },
  endpoint: ({ id }) => `/tags/${id}`,
  method: 'PUT',
  schema: editTagBodySchema,
  fields: TAG_FIELDS,
  defaults: { name: '', description: '', color: TAG_DEFAULT_COLOR },
  load: {
    path: (id) => `/tags/${id}`,
    toValues: (data) => {
      const tag = data as TagJson;
      return { name: tag.name, description: tag.description, color: tag.color };
    },
  },
  permission: 'manage_tags',
  invalidate: [tagKeys.all],
  result: { item: 'result.item', created: 'result.updated', updated: 'result.updated' },
  fallbackPath: '/tags',
};
