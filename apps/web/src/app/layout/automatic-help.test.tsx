import type { RouteDef } from '@fleetgate/shared/routes';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HelpProvider, useHelp } from '#src/components/page/help-context';
import { userStorage } from '#src/lib/storage/user-storage';
import { HELP_DISMISSED_KEY, useAutomaticHelp } from './automatic-help';

// Two panel routes: one whose help is written (its screen exists), one whose is not.
vi.mock('#src/features/help/help-content', () => ({
  hasHelp: (name: string) => name === 'built.panel',
}));

// Made-up routes, so that their names are in no table: only this test's help-content mock knows them.
const built = { name: 'built.panel', path: '/built', help: 'panel' } as unknown as RouteDef;
const unbuilt = { name: 'unbuilt.panel', path: '/unbuilt', help: 'panel' } as unknown as RouteDef;
const wrapper = ({ children }: { children: ReactNode }) => <HelpProvider>{children}</HelpProvider>;

function render(chain: RouteDef[]) {
  return renderHook(
    () => {
      const closed = useAutomaticHelp(chain);
      return { closed, help: useHelp() };
    },
    { wrapper },
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(userStorage, 'set').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('automatic help of help-panel routes (product §2 Layout, §9 700 ms)', () => {
  it('opens after 700 ms, not before', () => {
    const { result } = render([built]);
    act(() => vi.advanceTimersByTime(650));
    expect(result.current.help.routeName).toBeNull();
    act(() => vi.advanceTimersByTime(100));
    expect(result.current.help.routeName).toBe('built.panel');
  });

  it('closing it is remembered for the user, and a remembered route stays closed', () => {
    const { result } = render([built]);
    result.current.closed('built.panel');
    expect(userStorage.set).toHaveBeenCalledWith(HELP_DISMISSED_KEY, ['built.panel']);
    vi.spyOn(userStorage, 'get').mockReturnValue(['built.panel']);
    const again = render([built]);
    act(() => vi.advanceTimersByTime(1000));
    expect(again.result.current.help.routeName).toBeNull();
  });

  it('a route whose screen (and so help text) is not there yet opens nothing', () => {
    const { result } = render([unbuilt]);
    act(() => vi.advanceTimersByTime(1000));
    expect(result.current.help.routeName).toBeNull();
  });
});
