import { describe, expect, it } from 'vitest';
import { ApiError, CancelledError, NetworkError } from '../http/errors';
import { mapSubmitError, zodFieldErrors } from './errors';

const api = (errors: { code: string; message: string; source?: string }[], status = 400) =>
  new ApiError(status, 'Bad Request', errors, { success: false, errors });

describe('form error mapping (product §8)', () => {
  const fieldKeys = ['name', 'email', 'targets', 'file'];

  it('puts an error under the field its source names, others in the form-level list', () => {
    const mapped = mapSubmitError(
      api([
        { code: 'VALIDATION_ERROR', message: 'Name taken', source: 'name' },
        { code: 'CONFLICT', message: 'Limit reached' },
        { code: 'VALIDATION_ERROR', message: 'Bad thing', source: 'unknown_field' },
      ]),
      { fieldKeys },
    );
    expect(mapped).toEqual({ fields: { name: 'Name taken' }, form: ['Limit reached', 'Bad thing'] });
  });

  it('never shows UNAUTHORIZED under a field', () => {
    const mapped = mapSubmitError(api([{ code: 'UNAUTHORIZED', message: 'Sign in', source: 'name' }], 401), {
      fieldKeys,
    });
    expect(mapped?.fields).toEqual({});
    expect(mapped?.form).toEqual(['Sign in']);
  });

  it('maps bulk errors by position: data[2].x, data.2.x and bare positions', () => {
    const mapped = mapSubmitError(
      api([
        { code: 'VALIDATION_ERROR', message: 'Bad target', source: 'targets[2]' },
        { code: 'VALIDATION_ERROR', message: 'Also bad', source: 'targets.0' },
        { code: 'VALIDATION_ERROR', message: 'Fourth', source: '3' },
      ]),
      { fieldKeys, bulkKey: 'targets' },
    );
    expect(mapped?.fields).toEqual({
      'targets.2': 'Bad target',
      'targets.0': 'Also bad',
      'targets.3': 'Fourth',
    });
    // Without a bulk list, a bare position names the field at that place.
    expect(
      mapSubmitError(api([{ code: 'X', message: 'Second', source: '1' }]), { fieldKeys })?.fields,
    ).toEqual({
      email: 'Second',
    });
  });

  it("reads upload errors as '{message} ({file}, line {n} in {m})'", () => {
    const mapped = mapSubmitError(
      api([
        { code: 'VALIDATION_ERROR', message: 'Invalid serial', source: 'file/12/devices.csv' },
        { code: 'VALIDATION_ERROR', message: 'Invalid MAC', source: 'file/14/devices.csv' },
      ]),
      { fieldKeys },
    );
    expect(mapped?.fields).toEqual({ file: 'Invalid serial (file, line 12 in devices.csv)' });
    expect(mapped?.form).toEqual(['Invalid MAC (file, line 14 in devices.csv)']);
  });

  it("says 'Failed to send request. Try again later' when there is no object response", () => {
    expect(mapSubmitError(new ApiError(502, 'Bad Gateway', []), { fieldKeys })?.form).toEqual([
      'Failed to send request. Try again later',
    ]);
    expect(mapSubmitError(new NetworkError(), { fieldKeys })?.form).toEqual([
      'Failed to send request. Try again later',
    ]);
    expect(mapSubmitError(new Error('Request timeout'), { fieldKeys })?.form).toEqual(['Request timeout']);
  });

  it('a single error becomes a toast with useToast; the list a dialog with modalError', () => {
    const one = api([{ code: 'CONFLICT', message: 'Only one' }]);
    expect(mapSubmitError(one, { fieldKeys, useToast: true })).toEqual({
      fields: {},
      form: [],
      toast: 'Only one',
    });
    const two = api([
      { code: 'CONFLICT', message: 'First' },
      { code: 'CONFLICT', message: 'Second' },
    ]);
    expect(mapSubmitError(two, { fieldKeys, useToast: true })?.toast).toBeUndefined();
    expect(mapSubmitError(two, { fieldKeys, modalError: true })).toEqual({
      fields: {},
      form: [],
      modal: ['First', 'Second'],
    });
  });

  it('shows nothing for a cancelled request', () => {
    expect(mapSubmitError(new CancelledError('Route changed'), { fieldKeys })).toBeNull();
  });

  it("checks before sending with the shared schema's first message per field", () => {
    expect(
      zodFieldErrors([
        { path: ['name'], message: 'Name is required' },
        { path: ['name'], message: 'Name is too long' },
        { path: ['scopes', 0], message: 'Unknown scope' },
      ]),
    ).toEqual({ name: 'Name is required', scopes: 'Unknown scope' });
  });
});
