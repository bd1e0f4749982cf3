import { GB } from '@fleetgate/shared/resources';
import { describe, expect, it } from 'vitest';
import { codeStatus, companyRef, movementAmount } from './movements';
import { defaultPeriod, periodFilter, periodProblem, periodQuery } from './report-period';

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
