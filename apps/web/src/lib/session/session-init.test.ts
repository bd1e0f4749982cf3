import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../http/errors';
import { type InitDeps, initSession } from './session-init';

const user = { id: 1, email: 'a@b.c' } as CurrentUser;
const deps = (
  fetchUser: InitDeps['fetchUser'],
  refresh: InitDeps['refresh'] = async () => true,
): InitDeps => ({
  fetchUser,
  refresh,
  wait: async () => {},
});

describe('session initialisation (product §4)', () => {
  it('mounts with the user when the request succeeds', async () => {
    await expect(initSession(deps(async () => user))).resolves.toEqual({ kind: 'ready', user });
  });

  it('on 401 refreshes once and starts over', async () => {
    const fetchUser = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(401, 'Unauthorized', []))
      .mockResolvedValueOnce(user);
    const refresh = vi.fn().mockResolvedValue(true);
    await expect(initSession(deps(fetchUser, refresh))).resolves.toEqual({ kind: 'ready', user });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('asks to sign in when the refresh fails, or when 401 comes back after a refresh', async () => {
    const unauthorized = async () => Promise.reject(new ApiError(401, 'Unauthorized', []));
    await expect(initSession(deps(unauthorized, async () => false))).resolves.toEqual({ kind: 'login' });
    const refresh = vi.fn().mockResolvedValue(true);
    await expect(initSession(deps(unauthorized, refresh))).resolves.toEqual({ kind: 'login' });
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('shows the maintenance page after three consecutive failures, not before', async () => {
    const fetchUser = vi
      .fn()
      .mockRejectedValueOnce(new NetworkError())
      .mockRejectedValueOnce(new ApiError(500, 'Server Error', []))
      .mockResolvedValueOnce(user);
    await expect(initSession(deps(fetchUser))).resolves.toEqual({ kind: 'ready', user });
    const failing = vi.fn().mockRejectedValue(new ApiError(503, 'Unavailable', []));
    await expect(initSession(deps(failing))).resolves.toEqual({
      kind: 'maintenance',
      message: 'Failed to get user data',
    });
    expect(failing).toHaveBeenCalledTimes(3);
  });

  it('names a timeout as such', async () => {
    const timeout = async () => Promise.reject(new ApiError(408, 'Request Timeout', []));
    await expect(initSession(deps(timeout))).resolves.toEqual({
      kind: 'maintenance',
      message: 'User request timeout',
    });
  });

  it('shows the notice screen for the blocking codes of product §6', async () => {
    const blocked = async () =>
      Promise.reject(
        new ApiError(403, 'Forbidden', [
          { code: 'MFA_MANDATORY', message: 'Two-step verification is required' },
        ]),
      );
    await expect(initSession(deps(blocked))).resolves.toEqual({
      kind: 'notice',
      code: 'MFA_MANDATORY',
      message: 'Two-step verification is required',
    });
  });

  it('hands the notice screen the account address of the error data (product §8 Session)', async () => {
    const unconfirmed = async () =>
      Promise.reject(
        new ApiError(403, 'Forbidden', [{ code: 'EMAIL_NOT_VERIFIED', message: 'Please confirm' }], {
          success: false,
          errors: [{ code: 'EMAIL_NOT_VERIFIED', message: 'Please confirm' }],
          meta: { email: 'ola@acme.test' },
        }),
      );
    await expect(initSession(deps(unconfirmed))).resolves.toEqual({
      kind: 'notice',
      code: 'EMAIL_NOT_VERIFIED',
      message: 'Please confirm',
      email: 'ola@acme.test',
    });
  });

  it('rethrows programming errors instead of hiding them behind maintenance', async () => {
    const bug = async () => Promise.reject(new TypeError('x is undefined'));
    await expect(initSession(deps(bug))).rejects.toThrow(TypeError);
  });
});
