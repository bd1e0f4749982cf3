import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '#src/lib/http/errors';
import { checkRow, IMPORT_LIMITS, type ImportRow, readImportFile, runImport, summarize } from './import-rows';

const row = (line: number, over: Partial<ImportRow> = {}): ImportRow => ({
  line,
  serial: `RUT00${line}`,
  mac: `00:1E:42:00:00:0${line}`,
  company_id: '7',
  note: '',
  ...over,
});

const conflict = (message: string, source = 'serial') =>
  new ApiError(409, 'Conflict', [{ code: 'CONFLICT', message, source }]);

describe('readImportFile', () => {
  it('reads serial, mac, company_id and note in this order without a header row', () => {
    expect(readImportFile('RUT001,001e42000001,7,first\nRUT002,00:1E:42:00:00:02')).toEqual({
      rows: [
        { line: 1, serial: 'RUT001', mac: '001e42000001', company_id: '7', note: 'first' },
        { line: 2, serial: 'RUT002', mac: '00:1E:42:00:00:02', company_id: '', note: '' },
      ],
    });
  });

  it('follows the order a header row names, in any case, ignoring unknown columns', () => {
    expect(readImportFile('Company_ID,extra,MAC,Serial\n7,x,00:1E:42:00:00:01,RUT001')).toEqual({
      rows: [{ line: 2, serial: 'RUT001', mac: '00:1E:42:00:00:01', company_id: '7', note: '' }],
    });
  });

  it('refuses a header without a mac column, a file without rows and an unclosed quote', () => {
    expect(readImportFile('serial,company_id\nRUT001,7')).toEqual({ problem: { code: 'columns' } });
    expect(readImportFile('serial,mac\n\n')).toEqual({ problem: { code: 'empty' } });
    expect(readImportFile('RUT001,"00:1E')).toEqual({ problem: { code: 'unclosedQuote', line: 1 } });
  });

  it(`refuses a file of more than ${IMPORT_LIMITS.maxRows} rows as a whole`, () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `RUT${1000 + i},00:1E:42:00:00:01`);
    const atLimit = readImportFile(['serial,mac', ...lines(IMPORT_LIMITS.maxRows)].join('\n'));
    expect('rows' in atLimit && atLimit.rows).toHaveLength(IMPORT_LIMITS.maxRows);
    expect(readImportFile(lines(IMPORT_LIMITS.maxRows + 1).join('\n'))).toEqual({
      problem: { code: 'tooManyRows', count: IMPORT_LIMITS.maxRows + 1, max: IMPORT_LIMITS.maxRows },
    });
  });
});

describe('checkRow (the add form’s rules)', () => {
  it('gives the body to send, the company as a number', () => {
    expect(checkRow(row(1, { note: 'pallet 4' }), null)).toEqual({
      ok: true,
      body: { serial: 'RUT001', mac: '00:1E:42:00:00:01', company_id: 7, note: 'pallet 4' },
    });
  });

  it('takes the chosen company for a row without one, and keeps a row’s own', () => {
    expect(checkRow(row(1, { company_id: '' }), '3')).toMatchObject({ ok: true, body: { company_id: 3 } });
    expect(checkRow(row(1), '3')).toMatchObject({ ok: true, body: { company_id: 7 } });
  });

  it('refuses a row without a company when none is chosen, and a bad serial and MAC in one message', () => {
    expect(checkRow(row(1, { company_id: '' }), null)).toEqual({ ok: false, message: 'Company is required' });
    const bad = checkRow(row(1, { serial: 'x', mac: 'nope' }), null);
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.message).toMatch(/^Serial number .+; MAC address .+$/);
  });
});

describe('runImport (one result per row, nothing lost)', () => {
  it('sends the good rows in file order and lists every row with its outcome', async () => {
    const approve = vi.fn(async (body: { serial: string }) => {
      if (body.serial === 'RUT002') throw conflict('This serial number is approved already');
      return { success: true };
    });
    const progress: number[] = [];
    const rows = [row(2), row(3), row(4, { mac: 'bad' }), row(5)];
    const results = await runImport(rows, approve, {
      fallbackCompany: null,
      onProgress: (done) => progress.push(done.length),
    });
    expect(approve.mock.calls.map(([body]) => body.serial)).toEqual(['RUT002', 'RUT003', 'RUT005']);
    expect(results).toEqual([
      {
        line: 2,
        serial: 'RUT002',
        mac: '00:1E:42:00:00:02',
        status: 'failed',
        message: 'This serial number is approved already',
      },
      { line: 3, serial: 'RUT003', mac: '00:1E:42:00:00:03', status: 'approved' },
      {
        line: 4,
        serial: 'RUT004',
        mac: 'bad',
        status: 'failed',
        message: 'MAC address must be six hex pairs, e.g. 00:1E:42:12:34:56',
      },
      { line: 5, serial: 'RUT005', mac: '00:1E:42:00:00:05', status: 'approved' },
    ]);
    expect(progress).toEqual([1, 2, 3, 4]);
    expect(summarize(results)).toEqual({ total: 4, approved: 2, failed: 2, notSent: 0 });
  });

  it('words a failure without a message as product §8 does', async () => {
    const approve = async () => {
      throw new ApiError(500, 'Internal Server Error', []);
    };
    const [result] = await runImport([row(1)], approve, { fallbackCompany: null });
    expect(result?.message).toBe('Failed to approve device (Internal Server Error)');
  });

  it('stops after a refused password prompt: the rest are listed as not sent', async () => {
    const approve = vi.fn(async () => {
      throw new ApiError(423, 'Locked', [
        { code: 'PASSWORD_CONFIRMATION_REQUIRED', message: 'Confirm your password' },
      ]);
    });
    const results = await runImport([row(1), row(2), row(3)], approve, { fallbackCompany: null });
    expect(approve).toHaveBeenCalledTimes(1);
    expect(results.map((r) => r.status)).toEqual(['failed', 'notSent', 'notSent']);
    expect(results[0]?.message).toBe('Confirm your password');
  });

  it('stopped by the operator, finishes the row under way and sends no more', async () => {
    const controller = new AbortController();
    const approve = vi.fn(async () => {
      controller.abort();
      return { success: true };
    });
    const results = await runImport([row(1), row(2), row(3)], approve, {
      fallbackCompany: null,
      signal: controller.signal,
    });
    expect(approve).toHaveBeenCalledTimes(1);
    expect(results.map((r) => r.status)).toEqual(['approved', 'notSent', 'notSent']);
    expect(summarize(results)).toEqual({ total: 3, approved: 1, failed: 0, notSent: 2 });
  });
});
