import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Envelope } from './client';
import { ApiError } from './errors';
import { type ActionOptions, useAction } from './use-action';

afterEach(() => {
  cleanup();
  notifications.clean();
});

function setup<TVars, TResult>(options: ActionOptions<TVars, TResult>) {
  const client = new QueryClient();
  const invalidate = vi.spyOn(client, 'invalidateQueries');
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
  const hook = renderHook(() => useAction(options), { wrapper });
  return { hook, invalidate };
}

const ok = <T,>(data: T, message?: string): Envelope<T> => ({
  success: true,
  data,
  ...(message ? { message } : {}),
});

describe('useAction (product §8 Results)', () => {
  it('successful-removal invalidates what it changed and toasts the success', async () => {
    const { hook, invalidate } = setup({
      call: (id: number) => Promise.resolve(ok({ id })),
      failure: { verb: 'remove', item: 'tag' },
      invalidate: [['tags'], ['devices', 'tags']],
      success: 'Tag removed successfully',
    });
    let result: unknown;
    await act(async () => {
      result = await hook.result.current.run(7);
    });
    expect(result).toEqual({ success: true, data: { id: 7 } });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['tags'] });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['devices', 'tags'] });
    await screen.findByText('Tag removed successfully');
  });

  it("shows the answer's message unless the console's own words are asked for", async () => {
    const first = setup({
      call: () => Promise.resolve(ok(null, '2 users moved successfully')),
      failure: { verb: 'move', item: 'users' },
      success: 'Users moved successfully',
    });
    await act(() => first.hook.result.current.run());
    await screen.findByText('2 users moved successfully');
    cleanup();
    notifications.clean();
    const second = setup({
      call: () => Promise.resolve(ok(null, '2 of 2 devices accepted the action')),
      failure: { verb: 'send', item: 'action' },
      success: 'Reboot sent successfully',
      ownWords: true,
    });
    await act(() => second.hook.result.current.run());
    await screen.findByText('Reboot sent successfully');
    expect(screen.queryByText('2 of 2 devices accepted the action')).toBeNull();
  });

  it('failing-removal toasts the failure in the product wording and still refreshes the list', async () => {
    const { hook, invalidate } = setup({
      call: (_id: number) => Promise.reject(new ApiError(502, 'Bad Gateway', [])),
      failure: { verb: 'remove', item: 'tag' },
      invalidate: [['tags']],
      success: 'Tag removed successfully',
    });
    let result: unknown = 'unset';
    await act(async () => {
      result = await hook.result.current.run(7);
    });
    expect(result).toBeUndefined();
    await screen.findByText('Failed to remove tag (Bad Gateway)');
    expect(screen.queryByText('Tag removed successfully')).toBeNull();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['tags'] });
  });

  it("shows the server's first error message, and words the failure per call", async () => {
    const { hook } = setup({
      call: (verb: 'resend' | 'revoke') =>
        Promise.reject(new ApiError(409, 'Conflict', [{ code: 'X', message: `Cannot ${verb} it` }])),
      failure: (verb) => ({ verb, item: 'invitation' }),
    });
    await act(() => hook.result.current.run('resend'));
    await screen.findByText('Cannot resend it');
  });

  it('a refused password prompt (423) still reaches the user with its message, as before', async () => {
    const { hook } = setup({
      call: () =>
        Promise.reject(
          new ApiError(423, 'Locked', [{ code: 'PASSWORD_REQUIRED', message: 'Confirm your password' }]),
        ),
      failure: { verb: 'remove', item: 'two-step verification' },
    });
    await act(() => hook.result.current.run());
    await screen.findByText('Confirm your password');
  });

  it('is pending while the call is under way, with the arguments of the run', async () => {
    let finish: (value: Envelope<null>) => void = () => {};
    const { hook } = setup({
      call: (_id: number) =>
        new Promise<Envelope<null>>((resolve) => {
          finish = resolve;
        }),
      failure: { verb: 'revoke', item: 'session' },
    });
    expect(hook.result.current.pending).toBe(false);
    let running: Promise<unknown> = Promise.resolve();
    act(() => {
      running = hook.result.current.run(3);
    });
    await waitFor(() => expect(hook.result.current.pending).toBe(true));
    expect(hook.result.current.variables).toBe(3);
    await act(async () => {
      finish(ok(null));
      await running;
    });
    await waitFor(() => expect(hook.result.current.pending).toBe(false));
  });

  it('stays pending until what follows a success has finished', async () => {
    let done: () => void = () => {};
    const { hook } = setup({
      call: () => Promise.resolve(ok(null)),
      failure: { verb: 'update', item: 'profile' },
      onSuccess: () =>
        new Promise<void>((resolve) => {
          done = resolve;
        }),
    });
    act(() => void hook.result.current.run());
    await waitFor(() => expect(hook.result.current.pending).toBe(true));
    await act(async () => done());
    await waitFor(() => expect(hook.result.current.pending).toBe(false));
  });

  it('does not toast when the caller shows the failure itself (field errors of a form)', async () => {
    const shown = vi.fn();
    const error = new ApiError(422, 'Unprocessable Entity', [
      { code: 'INVALID', message: 'Name is taken', source: 'name' },
    ]);
    const { hook } = setup({
      call: (_body: { name: string }) => Promise.reject(error),
      failure: { verb: 'create', item: 'access token' },
      onFailure: shown,
    });
    await act(() => hook.result.current.run({ name: 'x' }));
    expect(shown).toHaveBeenCalledWith('Name is taken', error, { name: 'x' });
    // Give a toast the chance to appear: none does.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText('Name is taken')).toBeNull();
  });

  it('sends even when the browser reports being offline: the failure says what happened', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const call = vi.fn(() => Promise.resolve(ok(null)));
    const { hook } = setup({ call, failure: { verb: 'update', item: 'timezone' } });
    await act(() => hook.result.current.run());
    expect(call).toHaveBeenCalledOnce();
    online.mockRestore();
  });
});
