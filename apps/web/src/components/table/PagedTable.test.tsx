import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { type ReactNode, useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '#src/i18n/i18n';
import { type Column, PagedTable, pageQueryProps, type Selection } from './PagedTable';

type Row = { id: number; name: string };
const columns: Column<Row>[] = [
  { key: 'id', header: 'Id', sortKey: 'id', render: (row) => row.id },
  { key: 'name', header: 'Name', render: (row) => row.name },
];
const rows = (...ids: number[]): Row[] => ids.map((id) => ({ id, name: `Row ${id}` }));

beforeAll(async () => {
  await initI18n();
});
afterEach(cleanup);

const wrap = (node: ReactNode) => render(<MantineProvider env="test">{node}</MantineProvider>);

describe('PagedTable', () => {
  it('names rows, the empty line and the range by the test id; extra row attributes win', () => {
    wrap(
      <PagedTable
        columns={columns}
        rows={rows(1, 2)}
        total={30}
        loading={false}
        page={2}
        pageSize={2}
        onPage={() => {}}
        label="Things"
        empty="Nothing"
        testId="things"
        rowProps={(row): Record<string, string> =>
          row.id === 2 ? { 'data-testid': 'special', 'data-name': row.name } : {}
        }
      />,
    );
    expect(screen.getByRole('table', { name: 'Things' }).dataset.testid).toBe('things');
    expect(screen.getAllByTestId('things-row').map((tr) => tr.dataset.rowId)).toEqual(['1']);
    expect(screen.getByTestId('special').dataset.name).toBe('Row 2');
    expect(screen.getByTestId('things-total').textContent).toBe('3–4 of 30');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeTruthy();
  });

  it('shows the empty line and no range when there are no rows', () => {
    wrap(
      <PagedTable
        columns={columns}
        rows={[]}
        total={0}
        loading={false}
        page={1}
        pageSize={25}
        onPage={() => {}}
        label="Things"
        empty="Nothing"
        testId="things"
      />,
    );
    expect(screen.getByTestId('things-empty').textContent).toBe('Nothing');
    expect(screen.getByTestId('things-total').textContent).toBe('');
  });

  it('keys rows by a text id as well (a command uuid, a point in time)', () => {
    const commands = [
      { id: 'c-2', name: 'Reboot' },
      { id: 'c-1', name: 'Export' },
    ];
    wrap(
      <PagedTable
        columns={[{ key: 'name', header: 'Name', render: (row: { id: string; name: string }) => row.name }]}
        rows={commands}
        total={12}
        loading={false}
        page={1}
        pageSize={2}
        onPage={() => {}}
        label="Commands"
        empty="Nothing"
        testId="commands"
      />,
    );
    expect(screen.getAllByTestId('commands-row').map((tr) => tr.dataset.rowId)).toEqual(['c-2', 'c-1']);
    expect(screen.getByTestId('commands-total').textContent).toBe('1–2 of 12');
  });

  it('takes page and sort from a list state: sort buttons carry aria-sort and sort-<field>', () => {
    const list = { page: 1, limit: 25, sort: '-id', setPage: vi.fn(), toggleSort: vi.fn() };
    wrap(
      <PagedTable
        columns={columns}
        rows={rows(1)}
        total={1}
        loading={false}
        list={list}
        label="Things"
        empty="Nothing"
        testId="things"
      />,
    );
    expect(screen.getByRole('columnheader', { name: 'Id' }).getAttribute('aria-sort')).toBe('descending');
    expect(screen.getByRole('columnheader', { name: 'Name' }).hasAttribute('aria-sort')).toBe(false);
    fireEvent.click(screen.getByTestId('sort-id'));
    expect(list.toggleSort).toHaveBeenCalledWith('id');
  });

  it('selects rows one by one and the whole page, never a disabled row', () => {
    function Selectable() {
      const [selected, setSelected] = useState<Set<number>>(new Set());
      const selection: Selection = {
        selected,
        onChange: setSelected,
        disabled: (id) => id === 2,
        pageLabel: 'Select the page',
        rowLabel: (id) => `Select #${id}`,
      };
      return (
        <>
          <output data-testid="chosen">{[...selected].join(',')}</output>
          <PagedTable
            columns={columns}
            rows={rows(1, 2, 3)}
            total={3}
            loading={false}
            page={1}
            pageSize={25}
            onPage={() => {}}
            label="Things"
            empty="Nothing"
            testId="things"
            selection={selection}
          />
        </>
      );
    }
    wrap(<Selectable />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select #3' }));
    expect(screen.getByTestId('chosen').textContent).toBe('3');
    expect((screen.getByRole('checkbox', { name: 'Select #2' }) as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select the page' }));
    expect(screen.getByTestId('chosen').textContent).toBe('3,1');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select the page' }));
    expect(screen.getByTestId('chosen').textContent).toBe('');
  });
});

describe('pageQueryProps', () => {
  const query = { isPending: false, isFetching: true, isError: false, error: null };
  it('passes rows and total, loading on the first load or, when asked, on every fetch', () => {
    const loaded = { ...query, data: { rows: rows(1), total: 7 } };
    expect(pageQueryProps(loaded, 'rows')).toEqual({ rows: rows(1), total: 7, loading: false, error: null });
    expect(pageQueryProps(loaded, 'rows', 'fetching').loading).toBe(true);
    expect(pageQueryProps({ ...query, isPending: true }, 'rows')).toMatchObject({
      rows: undefined,
      total: 0,
      loading: true,
    });
  });

  it('turns a failure into the message of product §8', () => {
    const failed = { ...query, isError: true, error: new Error('boom') };
    expect(pageQueryProps(failed, 'tags').error).toBe('Server error');
  });
});
