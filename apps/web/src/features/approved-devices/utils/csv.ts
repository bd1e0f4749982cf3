/**
 * A small RFC 4180 reader for the approved-devices import, run in the browser: quoted
 * fields, doubled quotes, separators and line breaks inside quotes, CRLF, LF or CR line
 * ends, a byte-order mark. Blank lines are skipped and fields trimmed. The separator is ','
 * unless the first line holds ';' and no ',' (spreadsheets in some locales save so), the
 * same rule the server's device import follows.
 */

/** One record of the file: its fields and the line it starts on (1-based, as editors count). */
export type CsvRecord = { line: number; fields: string[] };

export type CsvResult =
  | { ok: true; records: CsvRecord[] }
  /** A quoted field that never closes: the rest of the file would be read as one field. */
  | { ok: false; unclosedQuoteLine: number };

export function parseCsv(input: string): CsvResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  const separator = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let quoteLine = 0;
  let line = 1;
  let recordLine = 1;

  const endField = () => {
    fields.push(field.trim());
    field = '';
  };
  const endRecord = () => {
    endField();
    if (fields.some((f) => f !== '')) records.push({ line: recordLine, fields });
    fields = [];
  };

  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        // A line break inside quotes belongs to the field; \r\n counts as one line.
        if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) line++;
        field += c;
      }
    } else if (c === '"') {
      quoted = true;
      quoteLine = line;
    } else if (c === separator) endField();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      recordLine = line;
    } else field += c;
  }
  if (quoted) return { ok: false, unclosedQuoteLine: quoteLine };
  endRecord();
  return { ok: true, records };
}
