import { z } from 'zod';
import { AMOUNT_MAX, BULK_SERVICE_MAX, RESOURCE_LIMITS } from '../resources';
import { commaIntList, commaList, idFilter, listQuerySchema } from './list';
import { body, fields, flag, instant, listOf, numeric, oneOf, text, typeMessage, whole } from './messages';

/**
 * The resources of product §3 (Resource type, Company's credits_left, packs_left,
 * remaining_data; forms newPool, movePools, newCode, activateCode, buyData), §7 (GET
 * /credits/summary) and §9 (limits). The catalogue itself is `../resources.ts`.
 */

const id = (label: string) =>
  z.coerce
    .number({ error: `${label} is required` })
    .int(`${label} is required`)
    .min(1, `${label} is required`);

/**
 * A count of units (pools, moves, codes): product §5 'at least 1'; whole, at most twelve digits.
 * Text of digits is taken as the forms send it; a sign, a point or letters are refused.
 */
export const amountSchema = (label: string) =>
  z
    .union([z.number(), z.string().trim().regex(/^\d+$/, `${label} must contain digits only`)], {
      error: typeMessage(label, 'a number'),
    })
    .transform(Number)
    .pipe(
      z
        .number()
        .int(`${label} must be a whole number`)
        .min(1, `${label} must be at least 1`)
        .max(AMOUNT_MAX, `${label} must be at most ${RESOURCE_LIMITS.amountDigits} digits`),
    );

/** A price of product §3 newPool: at least 0, in steps of 0.01. Kept as text with two decimals from here on. */
export const priceSchema = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d+(\.\d+)?$/, 'Credit price must be a number'),
    ],
    {
      error: typeMessage('Credit price', 'a number'),
    },
  )
  .transform(Number)
  .pipe(
    z
      .number()
      .min(0, 'Credit price must be at least 0')
      .max(RESOURCE_LIMITS.priceMax, `Credit price must be at most ${RESOURCE_LIMITS.priceMax}`)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'Credit price must be in steps of 0.01'),
  )
  .transform((v) => (Math.round(v * 100) / 100).toFixed(2));

const commentSchema = text('Comment')
  .trim()
  .max(RESOURCE_LIMITS.commentMax, `Comment must be at most ${RESOURCE_LIMITS.commentMax} characters`);

const typeNameSchema = text('Resource type')
  .trim()
  .min(1, 'Resource type is required')
  .max(100, 'Resource type must be at most 100 characters');

/** newPool (product §3): POST /credits. Price and pro-forma are required for the paid types (the server checks which). */
export const newPoolBodySchema = body({
  credit_type_id: id('Resource type'),
  credit_count: amountSchema('Resource count'),
  company_id: id('Company'),
  credit_price: priceSchema.optional(),
  pro_form_nr: text('Pro-forma number')
    .trim()
    .max(
      RESOURCE_LIMITS.proFormaMax,
      `Pro-forma number must be at most ${RESOURCE_LIMITS.proFormaMax} characters`,
    )
    .optional(),
});
export type NewPoolBody = z.infer<typeof newPoolBodySchema>;

/** movePools (product §3): POST /credits/move, from one company of the caller's to another. */
export const movePoolsBodySchema = body({
  credit_type_name: typeNameSchema,
  source: id('Source company'),
  target: id('Target company'),
  amount: amountSchema('Amount'),
});
export type MovePoolsBody = z.infer<typeof movePoolsBodySchema>;

/** newCode (product §3): POST /credits/codes; `company_id` is the super admin's alone. */
export const newCodeBodySchema = body({
  credit_type_name: typeNameSchema,
  company_id: id('From company').optional(),
  amount: amountSchema('Amount'),
  comment: commentSchema.default(''),
});
export type NewCodeBody = z.infer<typeof newCodeBodySchema>;

/** activateCode (product §3): POST /credits/codes/activate. */
export const activateCodeBodySchema = body({
  code: text('Code').trim().min(1, 'Code is required').max(64, 'Code must be at most 64 characters'),
});
export type ActivateCodeBody = z.infer<typeof activateCodeBodySchema>;

/** buyData (product §3, §5): credits as digits, leading zeros stripped, 1 to 14 characters. */
export const buyDataBodySchema = body({
  company_id: id('Company'),
  credits: z
    .union([z.number().int().transform(String), z.string()], { error: typeMessage('Credits', 'a number') })
    .transform((v) => v.trim().replace(/^0+(?=\d)/, ''))
    .pipe(
      z
        .string()
        .regex(/^\d+$/, 'Credits must contain digits only')
        .min(1, 'Credits is required')
        .max(
          RESOURCE_LIMITS.dataCreditsDigits,
          `Credits must be at most ${RESOURCE_LIMITS.dataCreditsDigits} digits`,
        )
        .refine((v) => v !== '0', 'Credits must be at least 1')
        .transform(Number),
    ),
});
export type BuyDataBody = z.infer<typeof buyDataBodySchema>;

/** Resource type (product §3), with the name as the caller may see it. */
export const resourceTypeSchema = fields('Resource type', {
  id: whole('Id'),
  name: text('Name'),
  payment_type: oneOf(['free', 'paid'], 'Payment type'),
  license_type: oneOf(['credit', 'management_pack', 'data_pack', 'vpn_hub'], 'License type'),
  duration_days: whole('Duration').nullable(),
  data_bytes: whole('Data').nullable(),
});
export type ResourceTypeRow = z.infer<typeof resourceTypeSchema>;

/** What a ledger entry records: one movement of resources. */
export const LEDGER_ACTIONS = [
  'pool',
  'move',
  'code_create',
  'code_redeem',
  'code_cancel',
  'buy_data',
  'trial_data',
  'activate',
  'renew',
  'spend_data',
  'move_days',
  'move_pack',
] as const;
export type LedgerAction = (typeof LEDGER_ACTIONS)[number];

/** One movement (the credit history of product §2 services.credit-history). */
export const movementSchema = fields('Movement', {
  id: whole('Id'),
  action: oneOf(LEDGER_ACTIONS, 'Action'),
  credit_type: whole('Resource type').nullable(),
  credit_type_name: text('Resource type name').nullable(),
  /** Units of the type moved; for data, bytes. */
  amount: whole('Amount'),
  data_bytes: whole('Data').nullable(),
  source_company_id: whole('Source company id').nullable(),
  source_company_name: text('Source company').nullable(),
  target_company_id: whole('Target company id').nullable(),
  target_company_name: text('Target company').nullable(),
  credit_price: text('Credit price').nullable(),
  pro_form_nr: text('Pro-forma number').nullable(),
  comment: text('Comment').nullable(),
  code_id: whole('Code id').nullable(),
  device_id: whole('Device id').nullable(),
  target_device_id: whole('Target device id').nullable(),
  user_email: text('User').nullable(),
  created_at: instant('Created at'),
});
export type Movement = z.infer<typeof movementSchema>;

/** GET /credits: the list parameters and the history's filters. */
export const movementListQuerySchema = listQuerySchema.extend({
  company_id: commaIntList.optional(),
  device_id: idFilter('Device').optional(),
  credit_type: commaIntList.optional(),
  action: commaList.pipe(z.array(oneOf(LEDGER_ACTIONS, 'Action'))).optional(),
  from: z.coerce.date({ error: 'From must be a date' }).optional(),
  to: z.coerce.date({ error: 'To must be a date' }).optional(),
});
export type MovementListQuery = z.infer<typeof movementListQuerySchema>;

/** A transfer code as its issuer's table shows it (product §4: Used or Not Used). */
export const transferCodeSchema = fields('Transfer code', {
  id: whole('Id'),
  code: text('Code'),
  company_id: whole('Company id'),
  company_name: text('Company'),
  credit_type: whole('Resource type'),
  credit_type_name: text('Resource type name'),
  amount: whole('Amount'),
  comment: text('Comment'),
  used: flag('Used'),
  used_at: instant('Used at').nullable(),
  cancelled: flag('Cancelled'),
  created_by: text('Created by').nullable(),
  created_at: instant('Created at'),
});
export type TransferCode = z.infer<typeof transferCodeSchema>;

/** GET /credits/codes: the list parameters, codes of these companies, used or still open (neither used nor cancelled). */
export const codeListQuerySchema = listQuerySchema.extend({
  company_id: commaIntList.optional(),
  used: z.enum(['true', 'false'], { error: 'Used must be true or false' }).optional(),
});
export type CodeListQuery = z.infer<typeof codeListQuerySchema>;

/** What redeeming a code answers: what the caller's company received. */
export const redeemedSchema = fields('Redeemed', {
  company_id: whole('Company id'),
  credit_type: whole('Resource type'),
  credit_type_name: text('Resource type name'),
  amount: whole('Amount'),
});
export type Redeemed = z.infer<typeof redeemedSchema>;

/** What buying data answers: the credits spent and the company data after. */
export const dataBoughtSchema = fields('Data bought', {
  company_id: whole('Company id'),
  credits: whole('Credits'),
  data_bytes: whole('Data'),
  remaining_data: whole('Remaining data'),
});
export type DataBought = z.infer<typeof dataBoughtSchema>;

/** A company's balances (product §3 Company: credits_left, packs_left, remaining_data). */
export const companyBalancesSchema = fields('Company resources', {
  company_id: whole('Company id'),
  credits_left: whole('Credits left'),
  packs_left: whole('Packs left'),
  remaining_data: whole('Remaining data'),
  per_type: listOf(
    fields('Balance', {
      credit_type: whole('Resource type'),
      credit_type_name: text('Name'),
      left: whole('Left'),
    }),
    'Balances',
  ),
});
export type CompanyBalances = z.infer<typeof companyBalancesSchema>;

/** GET /credits/types: the catalogue the caller may name, the price filter for the others. */
export const resourceTypeListQuerySchema = fields('Query', {
  company_id: idFilter('Company').optional(),
});

/** The part of GET /companies/{id} the resource summary reads. */
export const companyResourcesSchema = fields('Company', {
  id: whole('Id'),
  name: text('Name'),
  /** Data left to the company's devices, in bytes. */
  remaining_data: numeric('Remaining data').nullable().optional(),
});
export type CompanyResources = z.infer<typeof companyResourcesSchema>;

/** One entry of `credits.left`: credits of one type (several entries may share a type). */
export const creditEntrySchema = fields('Credits', {
  credit_type: z.union([whole('Credit type'), text('Credit type')], {
    error: typeMessage('Credit type', 'a number or text'),
  }),
  credit_type_name: text('Credit type name'),
  credits_left: numeric('Credits left'),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

/** GET /credits/summary: the credits left, entry by entry. */
export const creditsSummarySchema = fields('Credits summary', {
  credits: fields('Credits', { left: listOf(creditEntrySchema, 'Credits left').optional() }).optional(),
});
export type CreditsSummary = z.infer<typeof creditsSummarySchema>;

/** 'Manage services' (product §2 device dialog): a credit or a management pack switches the service on. */
export const activateServiceBodySchema = body({
  credit_type_name: typeNameSchema,
  auto_renew: flag('Renew automatically').optional(),
});
export type ActivateServiceBody = z.infer<typeof activateServiceBodySchema>;

export const autoRenewBodySchema = body({ auto_renew: flag('Renew automatically') });
export type AutoRenewBody = z.infer<typeof autoRenewBodySchema>;

/** A device's service (product §2 device.services): on or off, until when, from what. */
export const deviceServiceSchema = fields('Device service', {
  device_id: whole('Device id'),
  company_id: whole('Company id'),
  active: flag('Active'),
  service_until: instant('Service until').nullable(),
  /** Null while the device is on its trial. */
  service_type: whole('Resource type').nullable(),
  service_type_name: text('Resource type name').nullable(),
  trial: flag('Trial'),
  auto_renew: flag('Renew automatically'),
  /** Connection data packs activated on the device and not used yet. */
  data_packs: listOf(
    fields('Data pack', {
      credit_type: whole('Resource type'),
      credit_type_name: text('Name'),
      left: whole('Left'),
    }),
    'Data packs',
  ),
});
export type DeviceService = z.infer<typeof deviceServiceSchema>;

/** What company data is spent on (product §2 data history): remote access and VPN traffic. */
export const DATA_PURPOSES = ['remote_access', 'vpn'] as const;
export type DataPurpose = (typeof DATA_PURPOSES)[number];

const day = (label: string) =>
  z
    .string({ error: typeMessage(label, 'a date') })
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date (YYYY-MM-DD)`)
    .refine((v) => {
      const parsed = new Date(`${v}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === v;
    }, `${label} must be a date (YYYY-MM-DD)`);

/** GET /credits/data-history: the list parameters, a period of days, companies and one device. */
export const dataHistoryQuerySchema = listQuerySchema.extend({
  company_id: commaIntList.optional(),
  device_id: idFilter('Device').optional(),
  from: day('From').optional(),
  to: day('To').optional(),
});
export type DataHistoryQuery = z.infer<typeof dataHistoryQuerySchema>;

/** Data spent on one day by one device for one purpose. */
export const dataUsageSchema = fields('Data usage', {
  day: text('Day'),
  company_id: whole('Company id'),
  company_name: text('Company'),
  device_id: whole('Device id').nullable(),
  device_name: text('Device').nullable(),
  purpose: oneOf(DATA_PURPOSES, 'Purpose'),
  bytes: whole('Bytes'),
  unpaid_bytes: whole('Unpaid bytes'),
});
export type DataUsage = z.infer<typeof dataUsageSchema>;

/** GET /credits/data-overview: each company's data left, what it spends, and when it runs out at that pace. */
export const dataOverviewSchema = fields('Data overview', {
  company_id: whole('Company id'),
  company_name: text('Company'),
  remaining_data: whole('Remaining data'),
  spent_30_days: whole('Spent in 30 days'),
  daily_average: whole('Daily average'),
  /** The day the data runs out at the last 30 days' pace; null when nothing is spent. */
  runs_out_on: text('Runs out on').nullable(),
});
export type DataOverview = z.infer<typeof dataOverviewSchema>;

/**
 * 'Move device resources' (product §2 dialog; POST /devices/credits/move): the remaining days
 * of a credit, or an unused connection data pack (named by its type), from one device to another.
 */
export const moveDeviceResourcesBodySchema = body({
  source: id('Source device'),
  target: id('Target device'),
  resource: text('Resource')
    .trim()
    .min(1, 'Resource is required')
    .max(100, 'Resource must be at most 100 characters'),
});
export type MoveDeviceResourcesBody = z.infer<typeof moveDeviceResourcesBodySchema>;

/** What a move of device resources answers: both devices' services after it. */
export const deviceResourcesMovedSchema = fields('Moved', {
  resource: text('Resource'),
  amount: whole('Amount'),
  source: deviceServiceSchema,
  target: deviceServiceSchema,
});
export type DeviceResourcesMoved = z.infer<typeof deviceResourcesMovedSchema>;

/**
 * A quota a parent sets on a subsidiary: how many units of a type the subsidiary's own users
 * may pass on (down its tree or into codes) from now on; `cap: null` removes it.
 */
export const setQuotaBodySchema = body({
  credit_type_name: typeNameSchema,
  cap: z
    .number({ error: typeMessage('Quota', 'a number') })
    .int('Quota must be a whole number')
    .min(0, 'Quota must be at least 0')
    .max(AMOUNT_MAX, `Quota must be at most ${RESOURCE_LIMITS.amountDigits} digits`)
    .nullable(),
});
export type SetQuotaBody = z.infer<typeof setQuotaBodySchema>;

export const quotaSchema = fields('Quota', {
  credit_type: whole('Resource type'),
  credit_type_name: text('Resource type name'),
  cap: whole('Quota'),
  moved: whole('Passed on'),
  left: whole('Left'),
});
export type Quota = z.infer<typeof quotaSchema>;

/** 'Manage services' on the devices table's selection: one unit of the type per device, all or none. */
export const activateServicesBodySchema = body({
  device_id: listOf(whole('Device').min(1, 'Device ids are positive whole numbers'), 'Devices')
    .min(1, 'Select at least one device')
    .max(BULK_SERVICE_MAX, `At most ${BULK_SERVICE_MAX} devices at a time`),
  credit_type_name: typeNameSchema,
  auto_renew: flag('Renew automatically').optional(),
});
export type ActivateServicesBody = z.infer<typeof activateServicesBodySchema>;

export const servicesActivatedSchema = fields('Activated', {
  activated: whole('Activated'),
  credit_type: whole('Resource type'),
  credit_type_name: text('Resource type name'),
});
export type ServicesActivated = z.infer<typeof servicesActivatedSchema>;
