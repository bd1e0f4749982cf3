/**
 * CSV in and out for device import and export. RFC 4180: quoted fields, doubled quotes,
 * commas and line breaks inside quotes, CRLF or LF.
 */

export type CsvRow = { /** 1-based line of the file where the row starts. */ line: number; fields: string[] };

/**
 * Parses CSV text into rows of fields (blank lines skipped, fields trimmed), each with
 * the line it starts on. The separator is ',' unless the first line has ';' and no ','
 * (spreadsheets in some locales).
 */
export function parseCsv(text: string): CsvRow[] {
  const firstLine = text.slice(0, text.search(/\r|\n|$/));
  const separator = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const rows: CsvRow[] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"') {
        if (body[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(field.trim());
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      row.push(field.trim());
      if (row.some((f) => f !== '')) rows.push({ line: rowLine, fields: row });
      row = [];
      field = '';
      line++;
      rowLine = line;
    } else field += c;
  }
  row.push(field.trim());
  if (row.some((f) => f !== '')) rows.push({ line: rowLine, fields: row });
  return rows;
}

/** A plain number, as spreadsheets read one ('-94', '+3.5', '1e-3'): never a formula. */
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One CSV field: quoted when needed. Text a spreadsheet would run as a formula (starting
 * with =, +, -, @, tab or CR) is defused with a leading apostrophe; numbers stay numbers.
 */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (typeof value !== 'number' && /^[=+\-@\t\r]/.test(text) && !NUMBER.test(text)) text = `'${text}`;
  return /[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
