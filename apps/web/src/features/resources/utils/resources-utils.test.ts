import { GB } from '@fleetgate/shared/resources';
import { describe, expect, it } from 'vitest';
import { daysUntil, runsOutSoon, usageRowId, usageTotals } from './data-usage';
import { codeStatus, companyRef, movementAmount } from './movements';
import { defaultPeriod, isDay, periodFilter, periodProblem, periodQuery } from './report-period';

describe('a movement as the credit history shows it', () => {
  it('shows units of a type, data in GB for an entry without a type, and both for a data purchase', () => {
    expect(movementAmount({ credit_type: 2, amount: 1500, data_bytes: null })).toEqual({
      units: '1,500',
      data: null,
    });
    expect(movementAmount({ credit_type: null, amount: 5 * GB, data_bytes: 5 * GB })).toEqual({
      units: null,
      data: '5 GB',
    });
    // Trial data may carry its bytes in the amount only.
    expect(movementAmount({ credit_type: null, amount: 5 * GB, data_bytes: null }).data).toBe('5 GB');
    // product §9: 1 credit = 2 GB.
    expect(movementAmount({ credit_type: 2, amount: 3, data_bytes: 6 * GB })).toEqual({
      units: '3',
      data: '6 GB',
    });
  });

  it('tells the issuer, a company outside the caller’s reach and a named company apart', () => {
    expect(companyRef(null, null)).toEqual({ kind: 'none' });
    expect(companyRef(7, null)).toEqual({ kind: 'hidden' });
    expect(companyRef(7, 'Acme')).toEqual({ kind: 'named', id: 7, name: 'Acme' });
  });

  it('reads a code as Used, Not Used or Cancelled (product §4)', () => {
    expect(codeStatus({ used: false, cancelled: false })).toBe('unused');
    expect(codeStatus({ used: true, cancelled: false })).toBe('used');
    expect(codeStatus({ used: false, cancelled: true })).toBe('cancelled');
  });
});

describe('the credit report’s period', () => {
  it('starts at the first of the month and ends today, in the user’s zone', () => {
    // 23:30 UTC on 31 May is already 1 June in Oslo.
    const now = new Date('2025-05-31T23:30:00Z');
    expect(defaultPeriod('Europe/Oslo', now)).toEqual({ from: '2025-06-01', to: '2025-06-01' });
    expect(defaultPeriod('UTC', now)).toEqual({ from: '2025-05-01', to: '2025-05-31' });
  });

  it('counts both days whole: the server’s `to` is the start of the day after the last', () => {
    expect(periodQuery({ from: '2025-03-01', to: '2025-03-31' }, 'UTC')).toEqual({
      from: '2025-03-01T00:00:00.000Z',
      to: '2025-04-01T00:00:00.000Z',
    });
    // Oslo moves to summer time on 30 March: the day after still starts at local midnight.
    expect(periodQuery({ from: '2025-03-30', to: '2025-03-30' }, 'Europe/Oslo')).toEqual({
      from: '2025-03-29T23:00:00.000Z',
      to: '2025-03-30T22:00:00.000Z',
    });
  });

  it('leaves an open end out of the history filter and refuses an empty or reversed report period', () => {
    expect(periodFilter({ from: '', to: '2025-01-31' }, 'UTC')).toEqual({ to: '2025-02-01T00:00:00.000Z' });
    expect(periodFilter({ from: 'nonsense', to: '' }, 'UTC')).toEqual({});
    expect(periodProblem({ from: '2025-01-01', to: '' })).toBe('report.periodRequired');
    expect(periodProblem({ from: '2025-02-01', to: '2025-01-31' })).toBe('report.periodOrder');
    expect(periodProblem({ from: '2025-01-31', to: '2025-01-31' })).toBeNull();
  });
});

describe('company data as the data screens show it', () => {
  const now = new Date('2025-03-10T23:30:00Z');

  it('counts days to the day data runs out on the server’s calendar, and marks a week or less', () => {
    expect(daysUntil('2025-03-10', now)).toBe(0);
    expect(daysUntil('2025-03-17', now)).toBe(7);
    expect(daysUntil('2025-03-01', now)).toBe(-9);
    expect(runsOutSoon('2025-03-17', now)).toBe(true);
    expect(runsOutSoon('2025-03-18', now)).toBe(false);
    // Already out (nothing left at today's pace): as urgent as it gets.
    expect(runsOutSoon('2025-03-10', now)).toBe(true);
    // Nothing spent in 30 days: no day to foresee.
    expect(runsOutSoon(null, now)).toBe(false);
  });

  it('adds up a page of days with its unpaid part, and names a row by day, company, device and purpose', () => {
    expect(
      usageTotals([
        { bytes: 3 * GB, unpaid_bytes: GB },
        { bytes: GB, unpaid_bytes: 0 },
      ]),
    ).toEqual({ bytes: 4 * GB, unpaid: GB });
    expect(usageTotals([])).toEqual({ bytes: 0, unpaid: 0 });
    expect(usageRowId({ day: '2025-03-02', company_id: 2, device_id: null, purpose: 'vpn' })).toBe(
      '2025-03-02:2:0:vpn',
    );
  });

  it('takes only days that exist as a period end, as the server does', () => {
    expect(isDay('2025-02-28')).toBe(true);
    expect(isDay('2025-02-30')).toBe(false);
    expect(isDay('2025-2-1')).toBe(false);
    expect(isDay('')).toBe(false);
  });
});
