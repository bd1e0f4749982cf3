import { formatData } from '@fleetgate/shared/resources';
import { LEDGER_ACTIONS, type LedgerAction } from '@fleetgate/shared/schemas/resources';
import type { MovementJson } from '../api/resources';

/** The i18n key (namespace 'resources') of a ledger action in human words. */
export const ACTION_KEYS: Readonly<Record<LedgerAction, string>> = {
  pool: 'action.pool',
  move: 'action.move',
  code_create: 'action.code_create',
  code_redeem: 'action.code_redeem',
  code_cancel: 'action.code_cancel',
  buy_data: 'action.buy_data',
  trial_data: 'action.trial_data',
  activate: 'action.activate',
  renew: 'action.renew',
  spend_data: 'action.spend_data',
  move_days: 'action.move_days',
  move_pack: 'action.move_pack',
};

export const ACTIONS: readonly LedgerAction[] = LEDGER_ACTIONS;

/**
 * The actions that give a company data: a company's data history lists these above the data
 * it spent ('spend_data' entries are shown there, summed per day, device and purpose).
 */
export const DATA_GIVEN_ACTIONS: readonly LedgerAction[] = ['buy_data', 'trial_data'];

/**
 * What a movement moved, as the history shows it: units of its type, or data in GB when the
 * entry is data (an entry without a type counts bytes). Buying data shows both: the credits
 * spent and the data they gave.
 */
export function movementAmount(m: Pick<MovementJson, 'credit_type' | 'amount' | 'data_bytes'>): {
  units: string | null;
  data: string | null;
} {
  if (m.credit_type === null) return { units: null, data: formatData(m.data_bytes ?? m.amount) };
  return {
    units: m.amount.toLocaleString('en-US'),
    data: m.data_bytes === null ? null : formatData(m.data_bytes),
  };
}

/**
 * A company of a movement: none (the issuer, for pools and trial data), one the caller does
 * not reach (the server names it null: another tenant's name is never shown), or a name.
 */
export type CompanyRef = { kind: 'none' } | { kind: 'hidden' } | { kind: 'named'; id: number; name: string };

export function companyRef(id: number | null, name: string | null): CompanyRef {
  if (id === null) return { kind: 'none' };
  if (name === null) return { kind: 'hidden' };
  return { kind: 'named', id, name };
}

/** A transfer code's state in the codes table (product §4: Used or Not Used; a cancelled code says so). */
export type CodeStatus = 'used' | 'unused' | 'cancelled';

export function codeStatus(code: { used: boolean; cancelled: boolean }): CodeStatus {
  if (code.cancelled) return 'cancelled';
  return code.used ? 'used' : 'unused';
}
