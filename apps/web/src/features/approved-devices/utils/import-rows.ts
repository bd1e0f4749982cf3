import { ApiError, CancelledError } from '#src/lib/http/errors';
import { failureMessage } from '#src/lib/http/results';
import { type ApproveDeviceInput, approvalSchema } from '../api/approved-devices';
import { parseCsv } from './csv';

/** What one import may hold: enough for a delivery of devices, small enough to send row by row. */
export const IMPORT_LIMITS = { maxRows: 1000, maxBytes: 1024 * 1024 } as const;

/** The columns of an import file, in the order read when the file has no header row. */
export const IMPORT_COLUMNS = ['serial', 'mac', 'company_id', 'note'] as const;
type Column = (typeof IMPORT_COLUMNS)[number];

/** One row of the file as written, before it is checked. */
export type ImportRow = { line: number } & Record<Column, string>;

/** Why a file cannot be imported at all (an i18n key under `problem.` and its values). */
export type FileProblem =
  | { code: 'empty' }
  | { code: 'columns' }
  | { code: 'tooManyRows'; count: number; max: number }
  | { code: 'unclosedQuote'; line: number };

/**
 * The rows of an import file. Columns serial, mac, company_id, note in this order, or in any
 * order named by a header row (a first row with a field `serial`); unknown columns are
 * ignored. More than IMPORT_LIMITS.maxRows rows refuse the whole file.
 */
export function readImportFile(text: string): { rows: ImportRow[] } | { problem: FileProblem } {
  const parsed = parseCsv(text);
  if (!parsed.ok) return { problem: { code: 'unclosedQuote', line: parsed.unclosedQuoteLine } };
  const records = [...parsed.records];
  let columns: readonly string[] = IMPORT_COLUMNS;
  const header = records[0]?.fields.map((f) => f.toLowerCase());
  if (header?.includes('serial')) {
    if (!header.includes('mac')) return { problem: { code: 'columns' } };
    columns = header;
    records.shift();
  }
  if (records.length === 0) return { problem: { code: 'empty' } };
  if (records.length > IMPORT_LIMITS.maxRows)
    return { problem: { code: 'tooManyRows', count: records.length, max: IMPORT_LIMITS.maxRows } };
  return {
    rows: records.map(({ line, fields }) => {
      const value = (name: Column) => {
        const index = columns.indexOf(name);
        return index < 0 ? '' : (fields[index] ?? '');
      };
      return {
        line,
        serial: value('serial'),
        mac: value('mac'),
        company_id: value('company_id'),
        note: value('note'),
      };
    }),
  };
}

/**
 * A row checked as the add form checks it (approvalSchema): the body to send, or the
 * schema's messages. A row without a company takes `fallbackCompany` when one is chosen.
 */
export function checkRow(
  row: ImportRow,
  fallbackCompany: string | null,
): { ok: true; body: ApproveDeviceInput } | { ok: false; message: string } {
  const parsed = approvalSchema.safeParse({
    serial: row.serial,
    mac: row.mac,
    company_id: row.company_id || fallbackCompany || undefined,
    ...(row.note ? { note: row.note } : {}),
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  const messages = [...new Set(parsed.error.issues.map((issue) => issue.message))];
  return { ok: false, message: messages.join('; ') };
}

/** What became of one row: approved, refused (with the reason) or never sent. */
export type ImportResult = {
  line: number;
  serial: string;
  mac: string;
  status: 'approved' | 'failed' | 'notSent';
  message?: string;
};

export type ImportOptions = {
  fallbackCompany: string | null;
  /** Aborted: the row under way finishes (it may have reached the server); the rest stay unsent. */
  signal?: AbortSignal;
  /** After each row, with the results so far. */
  onProgress?(results: ImportResult[]): void;
};

/**
 * A failure that ends the import: the password prompt of a sensitive action was refused
 * (423), the session is gone (401), or the request was cancelled. Sending the next rows
 * would only fail the same way, or ask for the password once per row.
 */
function stopsImport(error: unknown): boolean {
  if (error instanceof CancelledError) return true;
  return error instanceof ApiError && (error.status === 401 || error.status === 423);
}

/**
 * Sends the rows one at a time, in file order (a refused password prompt is asked once, and
 * a serial repeated in the file is refused by the server as 'approved already'). Every row
 * gets a result; a row's failure is kept with the server's words, never thrown.
 */
export async function runImport(
  rows: readonly ImportRow[],
  approve: (body: ApproveDeviceInput) => Promise<unknown>,
  options: ImportOptions,
): Promise<ImportResult[]> {
  const results: ImportResult[] = [];
  let stopped = false;
  for (const row of rows) {
    const base = { line: row.line, serial: row.serial, mac: row.mac };
    if (stopped || options.signal?.aborted) {
      results.push({ ...base, status: 'notSent' });
      continue;
    }
    const checked = checkRow(row, options.fallbackCompany);
    if (!checked.ok) {
      results.push({ ...base, status: 'failed', message: checked.message });
    } else {
      try {
        await approve(checked.body);
        results.push({ ...base, status: 'approved' });
      } catch (error) {
        results.push({ ...base, status: 'failed', message: failureMessage(error, 'approve', 'device') });
        stopped = stopsImport(error);
      }
    }
    options.onProgress?.([...results]);
  }
  return results;
}

/** How many rows ended each way. */
export function summarize(results: readonly ImportResult[]) {
  const count = (status: ImportResult['status']) => results.filter((r) => r.status === status).length;
  return {
    total: results.length,
    approved: count('approved'),
    failed: count('failed'),
    notSent: count('notSent'),
  };
}
