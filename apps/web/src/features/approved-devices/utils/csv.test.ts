import { describe, expect, it } from 'vitest';
import { parseCsv } from './csv';

const records = (text: string) => {
  const result = parseCsv(text);
  if (!result.ok) throw new Error(`unclosed quote on line ${result.unclosedQuoteLine}`);
  return result.records;
};

describe('parseCsv (RFC 4180 as spreadsheets write it)', () => {
  it('splits records on LF, CRLF and lone CR, and fields on commas', () => {
    expect(records('a,b\nc,d\r\ne,f\rg,h')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['c', 'd'] },
      { line: 3, fields: ['e', 'f'] },
      { line: 4, fields: ['g', 'h'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks inside', () => {
    expect(records('"RUT,1","say ""hi""","two\nlines"\nnext,row,x')).toEqual([
      { line: 1, fields: ['RUT,1', 'say "hi"', 'two\nlines'] },
      // The record after a quoted line break starts on the file's third line.
      { line: 3, fields: ['next', 'row', 'x'] },
    ]);
  });

  it('counts a CRLF inside quotes as one line', () => {
    expect(records('"a\r\nb",c\r\nd,e').map((r) => r.line)).toEqual([1, 3]);
  });

  it('skips blank lines and lines of empty fields, keeping the line numbers of the rest', () => {
    expect(records('\na,b\n\n , \nc,d\n\n')).toEqual([
      { line: 2, fields: ['a', 'b'] },
      { line: 5, fields: ['c', 'd'] },
    ]);
  });

  it('trims fields and keeps empty ones in their place', () => {
    expect(records('  a , ,c  ')).toEqual([{ line: 1, fields: ['a', '', 'c'] }]);
  });

  it('drops a byte-order mark', () => {
    expect(records('\uFEFFserial,mac')).toEqual([{ line: 1, fields: ['serial', 'mac'] }]);
  });

  it('reads semicolons as separators when the first line has them and no comma', () => {
    expect(records('serial;mac\nRUT1;00:1E:42:00:00:01')).toEqual([
      { line: 1, fields: ['serial', 'mac'] },
      { line: 2, fields: ['RUT1', '00:1E:42:00:00:01'] },
    ]);
    // With a comma on the first line, a semicolon is only text.
    expect(records('a,b;c')).toEqual([{ line: 1, fields: ['a', 'b;c'] }]);
  });

  it('reports a quote that never closes, with the line it opened on', () => {
    expect(parseCsv('a,b\nc,"d\ne,f')).toEqual({ ok: false, unclosedQuoteLine: 2 });
  });

  it('reads an empty file as no records', () => {
    expect(records('')).toEqual([]);
  });
});
