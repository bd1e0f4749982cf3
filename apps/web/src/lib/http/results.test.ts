import { describe, expect, it } from 'vitest';
import { ApiError } from './errors';
import { failureMessage, isSuccessMessage, successMessage, successToast } from './results';

describe('generic results (product §8)', () => {
  it('says what succeeded', () => expect(successMessage('tag', 'created')).toBe('Tag created successfully'));
  it("names the device password as product §8 words it, not 'Saved successfully'", () =>
    expect(successMessage('device password', 'updated')).toBe('Device password updated successfully'));
  it('fills a translated pattern and still starts with a capital', () =>
    expect(successMessage('passord', 'oppdatert', ({ item, verb }) => `${item} ${verb}`)).toBe(
      'Passord oppdatert',
    ));
  it('recognises the pattern', () => {
    expect(isSuccessMessage('Company created successfully')).toBe(true);
    expect(isSuccessMessage('Address removed from the suppression list successfully')).toBe(true);
    for (const other of [
      'Saved successfully',
      'Done',
      'Tags updated',
      '2 of 2 devices accepted the action',
      'Test message sent to jane@x.test',
      'company created successfully',
      undefined,
      null,
      '',
    ]) {
      expect(isSuccessMessage(other), String(other)).toBe(false);
    }
  });
  it("toasts the server's message by default, else the console's own words", () => {
    expect(successToast('2 users moved successfully', 'Users moved successfully')).toBe(
      '2 users moved successfully',
    );
    // A server message that says more than the pattern (the e-mail was not sent) is kept.
    const unsent = 'Invitation created. SMTP is not configured, so the e-mail was not sent.';
    expect(successToast(unsent, 'Invitation sent successfully')).toBe(unsent);
    expect(successToast(undefined, 'Device password updated successfully')).toBe(
      'Device password updated successfully',
    );
    expect(successToast('  ', 'Tag created successfully')).toBe('Tag created successfully');
  });
  it('toasts its own words where the summary shows elsewhere (Action status, import results)', () =>
    expect(
      successToast('2 of 2 devices accepted the action', 'Reboot sent successfully', { own: true }),
    ).toBe('Reboot sent successfully'));
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
