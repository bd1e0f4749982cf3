import { CREDIT_DATA_BYTES, formatData, isPaidType, RESOURCE_LIMITS } from '@fleetgate/shared/resources';
import {
  activateCodeBodySchema,
  buyDataBodySchema,
  movePoolsBodySchema,
  newCodeBodySchema,
  newPoolBodySchema,
  setQuotaBodySchema,
} from '@fleetgate/shared/schemas/resources';
import { type CompanyOption, fetchCompanyOptions } from '#src/features/companies/api/companies';
import type { FieldDef, FieldOption, FormDefinition, FormValues } from '#src/lib/forms/types';
import { fetchResourceTypes, RESOURCE_CHANGE_KEYS, type ResourceTypeJson } from '../api/resources';
import { NewCodeFormBody } from '../components/NewCodeForm';

/** product §3 Form field definition: text of digits, at most `digits` of them (product §5). */
const digitsField = (key: string, label: string, digits: number, hint?: string): FieldDef => ({
  key,
  label,
  type: 'text',
  required: true,
  maxlength: digits,
  pattern: '[0-9]*',
  ...(hint ? { hint } : {}),
});

/** The companies of the caller's reach for a selector; none when it may not list them. */
async function companyChoices(): Promise<CompanyOption[]> {
  try {
    return await fetchCompanyOptions();
  } catch {
    return [];
  }
}

async function typeChoices(): Promise<ResourceTypeJson[]> {
  try {
    return await fetchResourceTypes();
  } catch {
    return [];
  }
}

/** The preset company among the choices even when the first page of the selector list missed it. */
function withCompany(choices: CompanyOption[], company?: { id: number; name: string }): CompanyOption[] {
  if (!company || choices.some((c) => c.value === String(company.id))) return choices;
  return [{ value: String(company.id), label: `${company.name} #${company.id}` }, ...choices];
}

/** Types named as movePools and newCode send them: by the name the caller sees (product §6). */
const byName = (types: readonly ResourceTypeJson[]): FieldOption[] =>
  types.map((t) => ({ value: t.name, label: t.name }));

/** The price and pro-forma fields show for the paid types only (product §3 newPool, §9). */
const paidTypeChosen = (values: FormValues) => isPaidType(Number(values.credit_type_id));

/**
 * newPool with product §5's last rule: price and pro-forma number are required for the paid
 * types (ids 2, 4, …, 14). The server checks it too; here the fields say it before sending.
 */
export const newPoolFormSchema = newPoolBodySchema.superRefine((pool, ctx) => {
  if (!isPaidType(pool.credit_type_id)) return;
  if (pool.credit_price === undefined)
    ctx.addIssue({ code: 'custom', path: ['credit_price'], message: 'Credit price is required' });
  if (!pool.pro_form_nr)
    ctx.addIssue({ code: 'custom', path: ['pro_form_nr'], message: 'Pro-forma number is required' });
});

/** newPool, 'Add resources' (product §3: POST /credits; super admin). */
export async function newPoolForm(
  preset: { company?: { id: number; name: string } } = {},
): Promise<FormDefinition> {
  const [types, choices] = await Promise.all([typeChoices(), companyChoices()]);
  const companies = withCompany(choices, preset.company);
  return {
    name: 'newPool',
    ns: 'resources',
    title: { create: 'pool.title' },
    endpoint: '/credits',
    schema: newPoolFormSchema,
    fields: [
      {
        key: 'credit_type_id',
        label: 'field.type',
        type: 'select',
        required: true,
        options: types.map((t) => ({ value: String(t.id), label: t.name })),
        optionsAreData: true,
      },
      digitsField('credit_count', 'field.count', RESOURCE_LIMITS.amountDigits),
      {
        key: 'company_id',
        label: 'field.company',
        type: 'select',
        required: true,
        options: companies,
        optionsAreData: true,
      },
      {
        key: 'credit_price',
        label: 'field.price',
        type: 'number',
        required: true,
        min: 0,
        step: 0.01,
        depends: paidTypeChosen,
      },
      {
        key: 'pro_form_nr',
        label: 'field.proForma',
        type: 'text',
        required: true,
        maxlength: RESOURCE_LIMITS.proFormaMax,
        depends: paidTypeChosen,
      },
    ],
    defaults: {
      credit_type_id: undefined,
      credit_count: '',
      company_id: preset.company ? String(preset.company.id) : undefined,
    },
    permission: 'super_admin',
    invalidate: RESOURCE_CHANGE_KEYS,
    submitLabel: 'pool.submit',
    result: { item: 'result.resources', created: 'result.added', own: true },
    fallbackPath: '/resources/credits',
  };
}

/**
 * movePools, 'Move resources' (product §3: POST /credits/move): a type by name, from one
 * company of the caller's reach to another. The target never offers the source.
 */
export async function movePoolsForm(
  preset: { source?: number; title?: string } = {},
): Promise<FormDefinition> {
  const [types, companies] = await Promise.all([typeChoices(), companyChoices()]);
  return {
    name: 'movePools',
    ns: 'resources',
    title: { create: preset.title ?? 'move.title' },
    endpoint: '/credits/move',
    schema: movePoolsBodySchema,
    fields: [
      {
        key: 'credit_type_name',
        label: 'field.type',
        type: 'select',
        required: true,
        options: byName(types),
        optionsAreData: true,
      },
      {
        key: 'source',
        label: 'field.source',
        type: 'select',
        required: true,
        options: companies,
        optionsAreData: true,
      },
      {
        key: 'target',
        label: 'field.target',
        type: 'select',
        required: true,
        options: (values) => companies.filter((c) => c.value !== values.source),
        optionsAreData: true,
      },
      digitsField('amount', 'field.amount', RESOURCE_LIMITS.amountDigits),
    ],
    defaults: {
      credit_type_name: types.length === 1 ? types[0]!.name : undefined,
      source: preset.source === undefined ? undefined : String(preset.source),
      target: undefined,
      amount: '',
    },
    permission: 'manage_credits',
    invalidate: RESOURCE_CHANGE_KEYS,
    submitLabel: 'move.submit',
    result: { item: 'result.resources', created: 'result.moved', own: true },
    fallbackPath: '/resources/credits',
  };
}

/**
 * newCode (product §3: POST /credits/codes): a type, an amount and a comment; the super admin
 * alone names the company the resources come from. After saving, the window shows the code
 * with a copy button (NewCodeFormBody) until it is closed.
 */
export async function newCodeForm(
  preset: { company?: { id: number; name: string } } = {},
): Promise<FormDefinition> {
  const [types, choices] = await Promise.all([typeChoices(), companyChoices()]);
  const companies = withCompany(choices, preset.company);
  return {
    name: 'newCode',
    ns: 'resources',
    title: { create: 'code.title' },
    endpoint: '/credits/codes',
    schema: newCodeBodySchema,
    fields: [
      {
        key: 'credit_type_name',
        label: 'field.type',
        type: 'select',
        required: true,
        options: byName(types),
        optionsAreData: true,
      },
      {
        key: 'company_id',
        label: 'field.fromCompany',
        type: 'select',
        options: companies,
        optionsAreData: true,
        permission: 'super_admin',
        hint: 'field.fromCompanyHint',
      },
      digitsField('amount', 'field.amount', RESOURCE_LIMITS.amountDigits, 'field.amountHint'),
      {
        key: 'comment',
        label: 'field.comment',
        type: 'textarea',
        maxlength: RESOURCE_LIMITS.commentMax,
        hint: 'field.commentHint',
      },
    ],
    defaults: {
      credit_type_name: types.length === 1 ? types[0]!.name : undefined,
      company_id: preset.company ? String(preset.company.id) : undefined,
      amount: '',
      comment: '',
    },
    permission: 'manage_credits',
    invalidate: RESOURCE_CHANGE_KEYS,
    submitLabel: 'code.submit',
    result: { item: 'result.code', created: 'result.created', own: true },
    fallbackPath: '/resources/codes',
    body: NewCodeFormBody,
  };
}

/** activateCode (product §3: POST /credits/codes/activate with the code). */
export const activateCodeForm: FormDefinition = {
  name: 'activateCode',
  ns: 'resources',
  title: { create: 'redeem.title' },
  endpoint: '/credits/codes/activate',
  schema: activateCodeBodySchema,
  fields: [
    {
      key: 'code',
      label: 'field.code',
      type: 'text',
      required: true,
      maxlength: 64,
      placeholder: 'field.codePlaceholder',
      hint: 'field.codeHint',
    },
  ],
  defaults: { code: '' },
  permission: 'activate_credit_transfer_codes',
  invalidate: RESOURCE_CHANGE_KEYS,
  submitLabel: 'redeem.submit',
  result: { item: 'result.code', created: 'result.activated', own: true },
  fallbackPath: '/redeem-code',
};

/**
 * buyData (product §3, §5, §9) as the form checks it: the shared rule, and the data the
 * credits buy (1 credit = 2 GB) for the confirmation's words. `data` is not sent.
 */
export const buyDataFormSchema = buyDataBodySchema.transform((body) => ({
  ...body,
  count: body.credits,
  data: formatData(body.credits * CREDIT_DATA_BYTES),
}));

/** buyData, 'Buy data' (product §3: POST /companies/data): asks 'Spend N credits for M GB?' first. */
export async function buyDataForm(
  preset: { company?: { id: number; name: string } } = {},
): Promise<FormDefinition> {
  const companies = withCompany(await companyChoices(), preset.company);
  return {
    name: 'buyData',
    ns: 'resources',
    title: { create: 'buyData.title' },
    endpoint: '/companies/data',
    schema: buyDataFormSchema,
    fields: [
      {
        key: 'company_id',
        label: 'field.company',
        type: 'select',
        required: true,
        options: companies,
        optionsAreData: true,
      },
      digitsField('credits', 'field.credits', RESOURCE_LIMITS.dataCreditsDigits, 'buyData.hint'),
    ],
    defaults: {
      company_id: preset.company ? String(preset.company.id) : undefined,
      credits: '',
    },
    toBody: (values) => ({ company_id: values.company_id, credits: values.credits }),
    confirm: { title: 'buyData.title', message: 'buyData.confirm', confirmLabel: 'buyData.submit' },
    permission: 'manage_credits',
    invalidate: RESOURCE_CHANGE_KEYS,
    submitLabel: 'buyData.submit',
    result: { item: 'result.data', created: 'result.bought', own: true },
    fallbackPath: '/resources/credits',
  };
}

/**
 * 'Set quota' on a subsidiary's resources (PUT /companies/{id}/quotas): how many units of a
 * type the company's own users may still pass on, down its tree or into codes.
 */
export async function setQuotaForm(preset: {
  company: { id: number; name: string };
  quota?: { credit_type_name: string; cap: number };
}): Promise<FormDefinition> {
  const types = await typeChoices();
  return {
    name: 'setQuota',
    ns: 'resources',
    title: { create: 'quota.title' },
    endpoint: `/companies/${preset.company.id}/quotas`,
    method: 'PUT',
    schema: setQuotaBodySchema,
    fields: [
      {
        key: 'credit_type_name',
        label: 'field.type',
        type: 'select',
        required: true,
        options: byName(types),
        optionsAreData: true,
        disabled: preset.quota !== undefined,
      },
      {
        key: 'cap',
        label: 'field.quota',
        type: 'number',
        required: true,
        min: 0,
        step: 1,
        hint: 'quota.hint',
      },
    ],
    defaults: {
      credit_type_name: preset.quota?.credit_type_name ?? (types.length === 1 ? types[0]!.name : undefined),
      cap: preset.quota?.cap,
    },
    permission: 'manage_credits',
    invalidate: RESOURCE_CHANGE_KEYS,
    submitLabel: 'quota.submit',
    result: { item: 'result.quota', created: 'result.saved' },
    fallbackPath: '/resources/credits',
  };
}
