import { normalizeMac } from '@fleetgate/shared/devices/messages';
import { type RegisterDeviceBody, registerDeviceBody } from '@fleetgate/shared/schemas/devices';
import { conflict } from '#src/http/errors';
import { parseCsv } from './csv';

type ErrorItem = { code: string; message: string; source?: string };

/** Rows a single import may hold. */
export const IMPORT_MAX_ROWS = 10_000;
const IMPORT_COLUMNS = ['serial', 'mac', 'name', 'description', 'model'] as const;

export type ImportRowResult = {
  line: number;
  serial: string;
  mac: string;
  success: boolean;
  device_id?: number;
  errors?: ErrorItem[];
};

/** One row of an import file as written, before it is checked. */
export type ImportCandidate = {
  line: number;
  raw: Partial<Record<(typeof IMPORT_COLUMNS)[number], string>>;
};

/**
 * The rows of an import file. Columns: serial, mac, name, description, model; a header row
 * naming them may reorder them. More than IMPORT_MAX_ROWS rows refuse the whole file.
 */
export function importCandidates(text: string): ImportCandidate[] {
  const rows = parseCsv(text);
  let columns: readonly string[] = IMPORT_COLUMNS;
  if (rows[0]?.fields.some((f) => f.toLowerCase() === 'serial')) {
    columns = rows[0].fields.map((f) => f.toLowerCase());
    rows.shift();
  }
  if (rows.length > IMPORT_MAX_ROWS) {
    throw conflict(`A file may hold at most ${IMPORT_MAX_ROWS} devices`, 'file');
  }
  return rows.map(({ line, fields }) => {
    const value = (name: string) => fields[columns.indexOf(name)] || undefined;
    return {
      line,
      raw: {
        serial: value('serial'),
        mac: value('mac'),
        name: value('name'),
        description: value('description'),
        model: value('model'),
      },
    };
  });
}

/** The serial and MAC pairs of the rows that have both, for the availability check. */
export function candidatePairs(candidates: ImportCandidate[]): { serial: string; mac: string }[] {
  return candidates.flatMap(({ raw }) => {
    const mac = raw.mac ? normalizeMac(raw.mac) : undefined;
    return raw.serial && mac ? [{ serial: raw.serial, mac }] : [];
  });
}

/**
 * A row checked as a registration body would be: the body, or the row's failed result.
 * A serial repeating an earlier row of the file fails too.
 */
export function checkCandidate(
  { line, raw }: ImportCandidate,
  seen: Set<string>,
): { ok: true; base: ImportRowResult; body: RegisterDeviceBody } | { ok: false; result: ImportRowResult } {
  const base = { line, serial: raw.serial ?? '', mac: raw.mac ?? '', success: false };
  const parsed = registerDeviceBody.safeParse(
    Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)),
  );
  if (!parsed.success) {
    const errors = parsed.error.issues.map((i) => ({
      code: 'VALIDATION_ERROR',
      message: i.message,
      source: String(i.path[0] ?? 'row'),
    }));
    return { ok: false, result: { ...base, errors } };
  }
  if (seen.has(parsed.data.serial))
    return { ok: false, result: rowConflict(base, 'Serial number repeats an earlier row') };
  seen.add(parsed.data.serial);
  return { ok: true, base, body: parsed.data };
}

/** A row refused for its serial. */
export function rowConflict(base: ImportRowResult, message: string): ImportRowResult {
  return { ...base, success: false, errors: [{ code: 'CONFLICT', message, source: 'serial' }] };
}
