import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { failureMessage, successToast } from './results';
import { notifyFailure, notifySuccess } from './toasts';

/** What an action does, as product §8 words a failure: 'Failed to {verb} {item} ({status})'. */
export type ActionWording = { verb: string; item: string };

export type ActionOptions<TVars, TResult> = {
  /** The call (an `xxxActions` function of the feature's api file). */
  call(vars: TVars): Promise<TResult>;
  /** The failure toast's words, used when the server gave no message of its own (product §8). */
  failure: ActionWording | ((vars: TVars) => ActionWording);
  /**
   * The queries the change touched, invalidated as soon as the call has answered, failed or
   * not: a refused change often means the data moved on (the row already removed, the
   * invitation already accepted), and the screen should show what the server holds now.
   */
  invalidate?: readonly QueryKey[] | ((vars: TVars) => readonly QueryKey[]);
  /**
   * The success toast in the console's words ('Tag removed successfully'); the answer's own
   * message is shown instead unless `ownWords` (product §8, results.ts successToast). A
   * function may answer null for no toast. Without it, success is silent.
   */
  success?: string | ((result: TResult, vars: TVars) => string | null);
  /** Toast the console's words even when the answer has a message (it shows elsewhere). */
  ownWords?: boolean;
  /** After a success and its toast; the action stays pending until it has finished. */
  onSuccess?(result: TResult, vars: TVars): unknown;
  /**
   * Shows the failure itself (field errors, a message in the form, another step) instead of
   * the toast. `message` is the product's wording of it. Every failure reaches it, the
   * refused password prompt (423) and the closed code dialog included, as before.
   */
  onFailure?(message: string, error: unknown, vars: TVars): void;
};

/** A call without arguments is run as `run()`. */
type RunArgs<TVars> = undefined extends TVars ? [vars?: TVars] : [vars: TVars];

export type Action<TVars, TResult> = {
  /** Runs the call; resolves with its result, or undefined once a failure has been shown. */
  run(...args: RunArgs<TVars>): Promise<TResult | undefined>;
  /** The call (and what follows a success) is under way: show it, ignore further submits. */
  pending: boolean;
  /** The arguments of the latest run (which row is busy). */
  variables: TVars | undefined;
};

function messageOf(result: unknown): string | undefined {
  if (result && typeof result === 'object' && 'message' in result) {
    const message = (result as { message?: unknown }).message;
    return typeof message === 'string' ? message : undefined;
  }
  return undefined;
}

/**
 * A change the console sends (product §4 Form submission, §8 Results), on TanStack Query's
 * useMutation: the success toast, the failure toast in the product's wording unless the
 * caller shows it, and the invalidation of what changed. Forms on the forms engine use
 * lib/forms (sendForm) instead, which shows its results through the same toasts.
 */
export function useAction<TVars = void, TResult = unknown>(
  options: ActionOptions<TVars, TResult>,
): Action<TVars, TResult> {
  const queryClient = useQueryClient();
  // Started, not awaited: a dialog closes and a button settles without waiting for the lists.
  const refresh = (vars: TVars) => {
    const keys = typeof options.invalidate === 'function' ? options.invalidate(vars) : options.invalidate;
    for (const queryKey of keys ?? []) void queryClient.invalidateQueries({ queryKey });
  };
  const mutation = useMutation<TResult, unknown, TVars>({
    mutationFn: (vars) => options.call(vars),
    // Sent as before even when the browser thinks it is offline: the failure says so.
    networkMode: 'always',
    onSuccess: async (result, vars) => {
      const words = typeof options.success === 'function' ? options.success(result, vars) : options.success;
      if (words) notifySuccess(successToast(messageOf(result), words, { own: Boolean(options.ownWords) }));
      refresh(vars);
      await options.onSuccess?.(result, vars);
    },
    onError: (error, vars) => {
      refresh(vars);
      const { verb, item } = typeof options.failure === 'function' ? options.failure(vars) : options.failure;
      const message = failureMessage(error, verb, item);
      if (options.onFailure) options.onFailure(message, error, vars);
      else notifyFailure(message);
    },
  });
  const { mutateAsync } = mutation;
  const run = useCallback(
    (...args: RunArgs<TVars>) => mutateAsync(args[0] as TVars).catch((): TResult | undefined => undefined),
    [mutateAsync],
  );
  return { run, pending: mutation.isPending, variables: mutation.variables };
}
