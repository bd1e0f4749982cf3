/**
 * The resource catalogue (product §3 Resource type, §9; docs/decisions.md 'Resources'): what a
 * company may hold and spend. Ids 1..14, each kind a free (odd id) and a paid (even id)
 * variant; the paid ones carry a price and a pro-forma number when issued. Kept free of zod
 * so that the console's first load can name types without the schemas.
 */

export type LicenseType = 'credit' | 'management_pack' | 'data_pack' | 'vpn_hub';
export type PaymentType = 'free' | 'paid';

export type ResourceType = {
  id: number;
  /** The name as the super admin sees it; others see paid types without 'Paid' (product §6). */
  name: string;
  payment_type: PaymentType;
  license_type: LicenseType;
  /** How long one unit keeps a device's service on, in days (credits, packs, VPN hub licences). */
  duration_days: number | null;
  /** The data one unit carries (connection data packs), in bytes. */
  data_bytes: number | null;
};

/** One gigabyte as the console counts data: 1024³ bytes. */
export const GB = 1024 ** 3;
/** product §9: one credit buys 2 GB of company data. */
export const CREDIT_DATA_BYTES = 2 * GB;
/** A new company's trial data allowance (5 GB). */
export const TRIAL_DATA_BYTES = 5 * GB;

const pair = (
  firstId: number,
  name: string,
  license_type: LicenseType,
  extra: Pick<ResourceType, 'duration_days' | 'data_bytes'>,
): ResourceType[] => [
  { id: firstId, name: `Free ${name}`, payment_type: 'free', license_type, ...extra },
  { id: firstId + 1, name: `Paid ${name}`, payment_type: 'paid', license_type, ...extra },
];

export const RESOURCE_TYPES: readonly ResourceType[] = [
  ...pair(1, 'credits', 'credit', { duration_days: 30, data_bytes: null }),
  ...pair(3, 'management pack (3 years)', 'management_pack', { duration_days: 3 * 365, data_bytes: null }),
  ...pair(5, 'management pack (5 years)', 'management_pack', { duration_days: 5 * 365, data_bytes: null }),
  ...pair(7, 'management pack (10 years)', 'management_pack', { duration_days: 10 * 365, data_bytes: null }),
  ...pair(9, 'connection data pack (1 GB)', 'data_pack', { duration_days: null, data_bytes: GB }),
  ...pair(11, 'connection data pack (10 GB)', 'data_pack', { duration_days: null, data_bytes: 10 * GB }),
  ...pair(13, 'VPN hub licence (30 days)', 'vpn_hub', { duration_days: 30, data_bytes: null }),
];

const byId = new Map(RESOURCE_TYPES.map((t) => [t.id, t]));

export function resourceType(id: number): ResourceType | undefined {
  return byId.get(id);
}

/** product §3 newPool, §9: the types whose pools need a price and a pro-forma number. */
export function isPaidType(id: number): boolean {
  return byId.get(id)?.payment_type === 'paid';
}

/** The credit types: what buys data and switches a device's service on for 30 days. */
export const CREDIT_TYPE_IDS = RESOURCE_TYPES.filter((t) => t.license_type === 'credit').map((t) => t.id);
export const PACK_TYPE_IDS = RESOURCE_TYPES.filter((t) => t.license_type === 'management_pack').map(
  (t) => t.id,
);

/**
 * A type's name as a caller sees it (product §6): the super admin reads the catalogue's name,
 * everyone else the paid types only, without 'Paid', first letter capitalised.
 */
export function typeNameFor(type: Pick<ResourceType, 'name'>, superAdmin: boolean): string {
  if (superAdmin) return capitalise(type.name);
  return capitalise(type.name.replace(/^Paid\s+/, ''));
}

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The type a name stands for, as movePools and newCode send it (`credit_type_name`): the
 * catalogue name or the name a non-super-admin sees, in any letter case; a type id as text
 * is taken too. Non-super-admins may only name paid types.
 */
export function typeByName(name: string, superAdmin: boolean): ResourceType | undefined {
  const wanted = name.trim().toLowerCase();
  if (/^\d+$/.test(wanted)) {
    const type = byId.get(Number(wanted));
    return type && (superAdmin || type.payment_type === 'paid') ? type : undefined;
  }
  return RESOURCE_TYPES.find(
    (t) =>
      (superAdmin || t.payment_type === 'paid') &&
      (t.name.toLowerCase() === wanted || typeNameFor(t, false).toLowerCase() === wanted),
  );
}

/** Limits of product §5 and §9 for the resource forms. */
export const RESOURCE_LIMITS = {
  /** Code amounts: digits only, at most 12. Pools and moves share the bound. */
  amountDigits: 12,
  commentMax: 200,
  /** Credits spent on data: digits only, leading zeros stripped, 1 to 14 characters. */
  dataCreditsDigits: 14,
  priceMax: 1_000_000_000,
  proFormaMax: 100,
} as const;

/** How many devices one bulk service activation may name. */
export const BULK_SERVICE_MAX = 100;

/** The largest amount a pool, move or code may carry: twelve nines. */
export const AMOUNT_MAX = 10 ** RESOURCE_LIMITS.amountDigits - 1;

/** Bytes as the console shows data: GB with up to two decimals below 100 GB, else whole. */
export function formatData(bytes: number): string {
  const gb = bytes / GB;
  if (gb >= 100) return `${Math.round(gb).toLocaleString('en-US')} GB`;
  if (gb >= 1) return `${Number(gb.toFixed(2))} GB`;
  return `${Number((bytes / 1024 ** 2).toFixed(1))} MB`;
}
