import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { failureMessage, successMessage } from './results';

describe('generic results (spec §8)', () => {
  it('says what succeeded', () => expect(successMessage('tag', 'created')).toBe('Tag created successfully'));
  it('shows the first error message of a failure', () => {
    expect(
      failureMessage(
        new ApiError(400, 'Bad Request', [{ code: 'X', message: 'Name is taken' }]),
        'create',
        'tag',
      ),
    ).toBe('Name is taken');
  });
  it('falls back to the verb, item and status text or status', () => {
    expect(failureMessage(new ApiError(502, 'Bad Gateway', []), 'update', 'company')).toBe(
      'Failed to update company (Bad Gateway)',
    );
    expect(failureMessage(new ApiError(502, '', []), 'update', 'company')).toBe(
      'Failed to update company (502)',
    );
  });
  it("says 'Server error' when no request was made", () =>
    expect(failureMessage(new TypeError('x'), 'remove', 'tag')).toBe('Server error'));
});
