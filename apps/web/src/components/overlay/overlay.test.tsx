import { Button, createTheme, MantineProvider, Menu, Tooltip } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Deferred, type OverlayProps } from './Deferred';
import { later } from './later';
import { Tip } from './Tip';

/** jsdom lays nothing out; floating-ui would otherwise hide what it places as detached. */
const theme = createTheme({
  components: {
    Menu: Menu.extend({ defaultProps: { hideDetached: false } }),
    Tooltip: Tooltip.extend({ defaultProps: { hideDetached: false } }),
  },
});

afterEach(cleanup);

describe('Tip: a tooltip whose code comes with the first hover or focus', () => {
  it('draws the button alone until it is hovered, then shows the label beside the same button', async () => {
    render(
      <MantineProvider theme={theme}>
        <Tip label="Expand the menu">
          <button type="button">≡</button>
        </Tip>
      </MantineProvider>,
    );
    const button = screen.getByRole('button');
    expect(screen.queryByText('Expand the menu')).toBeNull();
    fireEvent.pointerEnter(button);
    expect(await screen.findByText('Expand the menu')).toBeTruthy();
    // Never replaced: a button that had the focus keeps it.
    expect(screen.getByRole('button')).toBe(button);
  });

  it('shows on keyboard focus and hides on Escape (WCAG 1.4.13)', async () => {
    render(
      <MantineProvider theme={theme}>
        <Tip label="Table settings">
          <button type="button">⚙</button>
        </Tip>
      </MantineProvider>,
    );
    const button = screen.getByRole('button');
    act(() => button.focus());
    expect(await screen.findByText('Table settings')).toBeTruthy();
    fireEvent.keyDown(button, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByText('Table settings')).toBeNull());
    expect(document.activeElement).toBe(button);
  });

  it("keeps the child's own handlers and ref", async () => {
    const entered = vi.fn();
    let node: HTMLButtonElement | null = null;
    render(
      <MantineProvider theme={theme}>
        <Tip label="Help">
          <button
            type="button"
            onPointerEnter={entered}
            ref={(element) => {
              node = element;
            }}
          >
            ?
          </button>
        </Tip>
      </MantineProvider>,
    );
    // A browser sends both; the tooltip's code, there since the tests above, listens to the second.
    fireEvent.pointerEnter(screen.getByRole('button'));
    fireEvent.mouseEnter(screen.getByRole('button'));
    expect(entered).toHaveBeenCalledOnce();
    expect(node).toBe(screen.getByRole('button'));
    await screen.findByText('Help');
  });
});

function AddMenu({ opened, onChange, target, onPick }: OverlayProps & { onPick(item: string): void }) {
  return (
    <Menu opened={opened} onChange={onChange} returnFocus>
      <Menu.Target>{target}</Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={() => onPick('one')}>Add one</Menu.Item>
        <Menu.Item onClick={() => onPick('file')}>Import a file</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

function Toolbar({ load, onPick }: { load(): Promise<typeof AddMenu>; onPick(item: string): void }) {
  const [opened, setOpened] = useState(false);
  return (
    <Deferred
      load={load}
      opened={opened}
      onChange={setOpened}
      popup="menu"
      props={{ onPick }}
      target={<Button>Add</Button>}
    />
  );
}

describe('Deferred: a menu whose code comes with its first use', () => {
  it('draws only its target, then loads and opens on the first click', async () => {
    const load = vi.fn(async () => AddMenu);
    const picked = vi.fn();
    render(
      <MantineProvider theme={theme}>
        <Toolbar load={load} onPick={picked} />
      </MantineProvider>,
    );
    const target = screen.getByRole('button', { name: 'Add' });
    expect(load).not.toHaveBeenCalled();
    expect(target.getAttribute('aria-haspopup')).toBe('menu');
    expect(target.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(target);
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Import a file' }));
    expect(picked).toHaveBeenCalledWith('file');
    expect(load).toHaveBeenCalledOnce();
  });

  it('starts loading on hover or focus, so that the click finds it there', async () => {
    const load = vi.fn(async () => AddMenu);
    render(
      <MantineProvider theme={theme}>
        <Toolbar load={load} onPick={() => {}} />
      </MantineProvider>,
    );
    const before = screen.getByRole('button', { name: 'Add' });
    fireEvent.pointerEnter(before);
    expect(load).toHaveBeenCalledOnce();
    await act(async () => {});
    // Not drawn again until it opens: what the pointer is over stays (a tooltip on it, too).
    expect(screen.getByRole('button', { name: 'Add' })).toBe(before);
    fireEvent.focus(screen.getByRole('button', { name: 'Add' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('menuitem', { name: 'Add one' })).toBeTruthy();
    expect(load).toHaveBeenCalledOnce();
  });

  it('gives the focus back to the target when the code comes, and there when the menu closes', async () => {
    let arrive: (menu: typeof AddMenu) => void = () => {};
    const load = () => new Promise<typeof AddMenu>((resolve) => (arrive = resolve));
    render(
      <MantineProvider theme={theme}>
        <Toolbar load={load} onPick={() => {}} />
      </MantineProvider>,
    );
    const before = screen.getByRole('button', { name: 'Add' });
    act(() => before.focus());
    fireEvent.click(before);
    await act(async () => arrive(AddMenu));
    await screen.findByRole('menu');
    const target = screen.getByRole('button', { name: 'Add' });
    expect(target).not.toBe(before);
    expect(target.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(target));
  });
});

describe('Deferred without the network', () => {
  it('stays closed when its code does not come, and fetches it again at the next click', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('Failed to fetch')).mockResolvedValue(AddMenu);
    render(
      <MantineProvider theme={theme}>
        <Toolbar load={load} onPick={() => {}} />
      </MantineProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(load).toHaveBeenCalledOnce());
    await act(async () => {});
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    expect(await screen.findByRole('menuitem', { name: 'Add one' })).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('later: code fetched once, when first wanted', () => {
  it('loads once however often it is wanted, and keeps what came', async () => {
    const load = vi.fn(async () => 'the module');
    const piece = later(load);
    expect(piece.current).toBeNull();
    expect(load).not.toHaveBeenCalled();
    const [a, b] = await Promise.all([piece.load(), piece.load()]);
    expect([a, b, piece.current]).toEqual(['the module', 'the module', 'the module']);
    expect(load).toHaveBeenCalledOnce();
  });

  it('fetches again after a failure', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('Failed to fetch')).mockResolvedValue('the module');
    const piece = later(load);
    await expect(piece.load()).rejects.toThrow('Failed to fetch');
    expect(piece.current).toBeNull();
    expect(await piece.load()).toBe('the module');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
