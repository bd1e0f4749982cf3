import { COMPANY_NAME_MIN, NAME_MAX } from '@fleetgate/shared/limits';
import {
  COMPANY_PAYMENT_TYPES,
  companyFlagsBodySchema,
  editCompanyBodySchema,
  moveCompanyBodySchema,
  newCompanyBodySchema,
} from '@fleetgate/shared/schemas/companies';
import type { FieldDef, FormDefinition } from '#src/lib/forms/types';
import { api } from '#src/lib/http/client';
import {
  type Company,
  type CompanyTreeNode,
  companyKeys,
  FORM_DEFINITIONS_KEY,
  fetchCompanyOptions,
} from '../api/companies';
import {
  type FlatCompany,
  flattenTree,
  movableCompanies,
  moveTargets,
  PARENT_LEVELS,
} from '../utils/move-targets';

export { PARENT_LEVELS };

const invalidate = [companyKeys.all, FORM_DEFINITIONS_KEY] as const;

const nameField: FieldDef = {
  key: 'name',
  label: 'field.name',
  type: 'text',
  required: true,
  minlength: COMPANY_NAME_MIN,
  maxlength: NAME_MAX,
  hint: 'field.nameHint',
};

/**
 * newCompany (product §3: POST /companies; name min 3, parent of level 1 or 2). Built when
 * opened, so the parent list is the caller's current companies.
 */
export async function newCompanyForm(preset: { parentId?: number } = {}): Promise<FormDefinition> {
  const parents = await fetchCompanyOptions(PARENT_LEVELS);
  const parentId = preset.parentId ?? (parents.length === 1 ? Number(parents[0]!.value) : undefined);
  return {
    name: 'newCompany',
    ns: 'companies',
    title: { create: 'form.newTitle' },
    endpoint: '/companies',
    schema: newCompanyBodySchema,
    fields: [
      nameField,
      {
        key: 'parent_id',
        label: 'field.parent',
        type: 'select',
        required: true,
        options: parents,
        hint: 'field.parentHint',
      },
    ],
    defaults: { name: '', parent_id: parentId === undefined ? undefined : String(parentId) },
    permission: 'manage_companies',
    invalidate,
    result: { item: 'result.item', created: 'result.created' },
    fallbackPath: '/companies',
  };
}

/** Edit company: the name only; an unchanged name is refused by the server under the field (product §5). */
export const editCompanyForm: FormDefinition = {
  name: 'editCompany',
  ns: 'companies',
  title: { create: 'form.editTitle', edit: 'form.editTitle' },
  endpoint: ({ id }) => `/companies/${id}`,
  method: 'PUT',
  schema: editCompanyBodySchema,
  fields: [nameField],
  defaults: { name: '' },
  load: {
    path: (id) => `/companies/${id}`,
    toValues: (data) => ({ name: (data as Company).name }),
  },
  permission: 'manage_companies',
  invalidate,
  result: { item: 'result.item', created: 'result.updated', updated: 'result.updated' },
  fallbackPath: '/companies',
};

const optionOf = (c: FlatCompany) => ({ value: String(c.id), label: `${c.name} #${c.id}` });

/**
 * moveCompany (product §3: POST /companies/move; source, target). The targets follow the
 * company to move: never itself or a subsidiary, and only where the level rule holds.
 */
export async function moveCompanyForm(preset: { source?: number } = {}): Promise<FormDefinition> {
  const roots = (await api.get<CompanyTreeNode[]>('/companies/tree', { dedupe: false })).data;
  const companies = flattenTree(roots);
  // The tree is the caller's reach: its roots are the caller's own company, which never moves.
  const own = new Set(roots.map((r) => r.id));
  const sources = movableCompanies(companies, own);
  return {
    name: 'moveCompany',
    ns: 'companies',
    title: { create: 'form.moveTitle' },
    endpoint: '/companies/move',
    schema: moveCompanyBodySchema,
    fields: [
      {
        key: 'source',
        label: 'field.source',
        type: 'select',
        required: true,
        options: sources.map(optionOf),
        optionsAreData: true,
      },
      {
        key: 'target',
        label: 'field.target',
        type: 'select',
        required: true,
        options: (values) => moveTargets(companies, Number(values.source) || null).map(optionOf),
        optionsAreData: true,
        nothingFound: 'field.noTargets',
        hint: 'field.targetHint',
      },
    ],
    defaults: { source: preset.source === undefined ? undefined : String(preset.source), target: undefined },
    permission: 'manage_companies',
    invalidate,
    submitLabel: 'action.move',
    result: { item: 'result.item', created: 'result.moved' },
    fallbackPath: '/companies',
  };
}

/** 'Manage company flags' (product §2 dialog): show_payment and mandatory two-step verification. */
export const companyFlagsForm: FormDefinition = {
  name: 'companyFlags',
  ns: 'companies',
  title: { create: 'form.flagsTitle', edit: 'form.flagsTitle' },
  endpoint: ({ id }) => `/companies/${id}/flags`,
  method: 'PUT',
  schema: companyFlagsBodySchema,
  fields: [
    { key: 'show_payment', label: 'field.showPayment', type: 'checkbox', hint: 'field.showPaymentHint' },
    { key: 'mfa_mandatory', label: 'field.mfaMandatory', type: 'checkbox', hint: 'field.mfaMandatoryHint' },
    {
      key: 'payment_type',
      label: 'field.paymentType',
      type: 'radio',
      options: COMPANY_PAYMENT_TYPES.map((value) => ({ value, label: `paymentType.${value}` })),
      hint: 'field.paymentTypeHint',
      permission: 'super_admin',
    },
  ],
  defaults: { show_payment: false, mfa_mandatory: false, payment_type: 'paid' },
  load: {
    path: (id) => `/companies/${id}`,
    toValues: (data) => {
      const company = data as Company;
      return {
        show_payment: company.show_payment,
        mfa_mandatory: company.mfa_mandatory,
        payment_type: company.payment_type,
      };
    },
  },
  permission: 'manage_companies',
  invalidate,
  result: { item: 'result.flags', created: 'result.updated', updated: 'result.updated' },
  fallbackPath: '/companies',
};
