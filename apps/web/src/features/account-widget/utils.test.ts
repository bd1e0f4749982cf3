import { describe, expect, it } from 'vitest';
import { sumCreditsPerType } from './api/account-widget-queries';
import { formatBytes, impersonationAccessUntil, loadsCompanyData } from './utils';

describe('account widget rules', () => {
  it('shows impersonation access only while its limit is in the future (product §4 Session)', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(impersonationAccessUntil({ impersonation_access_limit: '2025-01-02T00:00:00Z' }, now)).toBe(
      '2025-01-02T00:00:00Z',
    );
    expect(impersonationAccessUntil({ impersonation_access_limit: '2024-12-31T00:00:00Z' }, now)).toBeNull();
    expect(impersonationAccessUntil({ impersonation_access_limit: null }, now)).toBeNull();
    expect(impersonationAccessUntil({ impersonation_access_limit: 'garbage' }, now)).toBeNull();
  });

  it('loads no company data for users of company 0 (product §6)', () => {
    expect(loadsCompanyData({ company_id: 0 })).toBe(false);
    expect(loadsCompanyData({ company_id: 1 })).toBe(true);
  });

  it('sums credits left per type (product §7 Data reads)', () => {
    expect(
      sumCreditsPerType({
        credits: {
          left: [
            { credit_type: 1, credit_type_name: 'Device credit', credits_left: 3 },
            { credit_type: 2, credit_type_name: 'Data credit', credits_left: 5 },
            { credit_type: 1, credit_type_name: 'Device credit', credits_left: 4 },
          ],
        },
      }),
    ).toEqual([
      { type: '1', name: 'Device credit', left: 7 },
      { type: '2', name: 'Data credit', left: 5 },
    ]);
    expect(sumCreditsPerType(undefined)).toEqual([]);
  });

  it('formats bytes in base 1024 (product §9)', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2 * 1024 ** 3)).toBe('2 GB');
    expect(formatBytes(1.5 * 1024 ** 2)).toBe('1.5 MB');
  });
});
