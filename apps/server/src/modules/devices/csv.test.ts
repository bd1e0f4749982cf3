import { describe, expect, it } from 'vitest';
import { csvField, csvLine, parseCsv } from './csv';

describe('CSV fields of exports', () => {
  it('numbers stay numbers, negative ones included', () => {
    expect(csvField(-94)).toBe('-94');
    expect(csvField('-94')).toBe('-94');
    expect(csvField('+3.5')).toBe('+3.5');
    expect(csvField('-1e-3')).toBe('-1e-3');
    expect(csvField(0)).toBe('0');
  });

  it('failing-formula-injection: text a spreadsheet would run is defused', () => {
    expect(csvField('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('+cmd|/C calc')).toBe("'+cmd|/C calc");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('--')).toBe("'--");
  });

  it('quotes what needs quoting and reads back what it wrote', () => {
    const line = csvLine(['Bus, five', 'say "hi"', -94, null, 'plain']);
    expect(line).toBe('"Bus, five","say ""hi""",-94,,plain\r\n');
    expect(parseCsv(line)[0]?.fields).toEqual(['Bus, five', 'say "hi"', '-94', '', 'plain']);
  });
});
