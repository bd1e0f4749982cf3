import type { RouteDef } from '@fleetgate/shared/routes';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userStorage } from '../../lib/storage/user-storage';
import { HELP_DISMISSED_KEY, useAutomaticHelp } from './automatic-help';
import { HelpProvider, useHelp } from './help-context';

// Two panel routes: one whose help is written (its screen exists), one whose is not.
vi.mock('../../features/help/help-content', () => ({
  helpFor: (name: string) => (name === 'built.panel' ? '## Help\n\n- text' : undefined),
}));

const built: RouteDef = { name: 'built.panel', path: '/built', help: 'panel' };
const unbuilt: RouteDef = { name: 'unbuilt.panel', path: '/unbuilt', help: 'panel' };
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
