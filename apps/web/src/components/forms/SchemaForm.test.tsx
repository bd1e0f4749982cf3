import { PERMISSIONS } from '@fleetgate/shared/permissions';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { initI18n } from '#src/i18n/i18n';
import { WindowsProvider } from '#src/lib/dialogs/WindowsProvider';
import { createWindowsStore } from '#src/lib/dialogs/windows-store';
import type { FormDefinition } from '#src/lib/forms/types';
import { SessionProvider } from '#src/lib/session/session-context';
import { SchemaForm } from './SchemaForm';

const user = (permissions: string[]): CurrentUser =>
  ({
    id: 1,
    username: 'u',
    email: 'u@x.test',
    avatar_url: null,
    company: { id: 1, parent_id: null, name: 'Root', level: 1, show_payment: false },
    company_id: 1,
    company_name: 'Root',
    role: { id: 2, name: 'admin', title: 'Administrator' },
    role_id: 2,
    role_title: 'Administrator',
    tos_accepted: true,
    mfa_type: null,
    exp: 0,
    permissions,
    token: { actor: false, actor_user: null },
    impersonation_access_limit: null,
    isImpersonating: false,
    show_payment: false,
    show_payment_control: false,
    country_iso_code: null,
    session: null,
  }) as CurrentUser;

const schema = z.strictObject({
  name: z.string().trim().min(1, 'Name is required'),
  kind: z.enum(['plain', 'secret']),
  secret: z.string().optional(),
  note: z.string().optional(),
  tags: z.array(z.string()).optional(),
});

const definition: FormDefinition = {
  name: 'test',
  ns: 'forms',
  title: { create: 'route.title' },
  endpoint: '/things',
  schema,
  fields: [
    { key: 'name', label: 'Name', type: 'text', required: true, maxlength: 8 },
    {
      key: 'kind',
      label: 'Kind',
      type: 'radio',
      options: [
        { value: 'plain', label: 'Plain' },
        { value: 'secret', label: 'Secret' },
      ],
    },
    {
      key: 'secret',
      label: 'Secret value',
      type: 'password',
      generate: true,
      depends: { key: 'kind', value: 'secret' },
    },
    { key: 'note', label: 'Admin note', type: 'text', permission: 'super_admin' },
    { key: 'tags', label: 'Tags', type: 'list', list: { uniqueItems: true } },
  ],
  defaults: { name: '', kind: 'plain', tags: [] },
  result: { item: 'route.title', created: 'route.title' },
};

let bodies: unknown[];
let answer: () => Response;

beforeAll(async () => {
  await initI18n();
});
beforeEach(() => {
  bodies = [];
  answer = () => new Response(JSON.stringify({ success: true, data: { id: 1 } }), { status: 200 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return answer();
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

let store: ReturnType<typeof createWindowsStore>;

function renderForm(permissions: string[] = [], onSuccess = vi.fn(), form: FormDefinition = definition) {
  store = createWindowsStore();
  render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient()}>
        <SessionProvider user={user(permissions)} brand={DEFAULT_BRAND}>
          <MemoryRouter>
            <WindowsProvider store={store}>
              <SchemaForm definition={form} formId="form:test" onSuccess={onSuccess} />
            </WindowsProvider>
          </MemoryRouter>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return onSuccess;
}

const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));

describe('SchemaForm (product §3 Form field definition, §4 Form submission, §5, §8)', () => {
  it('checks the schema before sending and sends the trimmed values', async () => {
    const onSuccess = renderForm();
    save();
    await screen.findByText('Name is required');
    expect(bodies).toEqual([]);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: '  Box  ' } });
    save();
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(bodies).toEqual([{ name: 'Box', kind: 'plain', tags: [] }]);
  });

  it('shows a dependent field only when its dependency holds, and clears it when it hides', async () => {
    renderForm();
    expect(screen.queryByLabelText('Secret value')).toBeNull();
    fireEvent.click(screen.getByLabelText('Secret'));
    const secret = await screen.findByLabelText('Secret value');
    // product §9: 'Generate' fills a 16-character password.
    fireEvent.click(screen.getByRole('button', { name: 'Generate password' }));
    await waitFor(() => expect((secret as HTMLInputElement).value).toHaveLength(16));
    fireEvent.click(screen.getByLabelText('Plain'));
    await waitFor(() => expect(screen.queryByLabelText('Secret value')).toBeNull());
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).not.toHaveProperty('secret');
  });

  it('shows a field with a permission only to its holders', () => {
    renderForm();
    expect(screen.queryByLabelText('Admin note')).toBeNull();
    cleanup();
    renderForm([...PERMISSIONS]);
    expect(screen.getByLabelText('Admin note')).toBeTruthy();
  });

  it('puts server errors under their field and the rest in a list; a field error clears on change', async () => {
    answer = () =>
      new Response(
        JSON.stringify({
          success: false,
          errors: [
            { code: 'CONFLICT', message: 'Name is taken', source: 'name' },
            { code: 'CONFLICT', message: 'Quota reached' },
          ],
        }),
        { status: 409 },
      );
    renderForm();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await screen.findByText('Name is taken');
    expect(screen.getByTestId('form-errors').textContent).toBe('Quota reached');
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box2' } });
    await waitFor(() => expect(screen.queryByText('Name is taken')).toBeNull());
  });

  it('ignores submits while waiting for the answer', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ok = answer;
    answer = () => ok();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        await gate;
        return ok();
      }),
    );
    const onSuccess = renderForm();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await waitFor(() => expect(bodies).toHaveLength(1));
    save();
    save();
    await act(async () => release());
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(bodies).toHaveLength(1);
  });

  it('cuts a paste to maxlength and adds list items with Enter, refusing duplicates', async () => {
    renderForm();
    const name = screen.getByLabelText(/^Name/) as HTMLInputElement;
    fireEvent.paste(name, { clipboardData: { getData: () => 'a very long name' } });
    await waitFor(() => expect(name.value).toBe('a very l'));

    const tags = screen.getByLabelText('Tags') as HTMLInputElement;
    fireEvent.change(tags, { target: { value: 'red' } });
    fireEvent.keyDown(tags, { key: 'Enter' });
    fireEvent.change(tags, { target: { value: 'red' } });
    fireEvent.keyDown(tags, { key: ',' });
    await screen.findByText('"red" is already in the list');
    expect(screen.getAllByTestId('list-item').map((p) => p.textContent)).toEqual(['red']);
    fireEvent.change(tags, { target: { value: '' } });
    fireEvent.keyDown(tags, { key: 'Backspace' });
    await waitFor(() => expect(screen.queryAllByTestId('list-item')).toHaveLength(0));
  });

  it("opens 'Action status' when the answer carries a channel, with the answer's message in it", async () => {
    answer = () =>
      new Response(
        JSON.stringify({
          success: true,
          data: {},
          meta: { channel: 'device-jobs.42' },
          message: 'Reboot queued',
        }),
        { status: 200 },
      );
    renderForm();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await screen.findByText('Action status');
    // The window's content loads when first opened (it brings the socket client).
    expect((await screen.findByTestId('action-status-channel')).textContent).toBe('device-jobs.42');
    expect(store.isOpen('form:test:status')).toBe(true);
    expect(screen.getByTestId('action-status-summary').textContent).toBe('Reboot queued');
  });

  it("shows errors in a dialog titled 'Error' with modalError", async () => {
    answer = () =>
      new Response(JSON.stringify({ success: false, errors: [{ code: 'CONFLICT', message: 'Busy' }] }), {
        status: 409,
      });
    renderForm([], vi.fn(), { ...definition, modalError: true });
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await screen.findByText('Error');
    expect(screen.getByTestId('error-dialog-message').textContent).toBe('Busy');
    expect(screen.queryByTestId('form-errors')).toBeNull();
  });

  it("shows the answer's summary once, in 'Action status', and toasts product §8's words instead", async () => {
    answer = () =>
      new Response(
        JSON.stringify({
          success: true,
          data: {},
          meta: { channel: 'device-jobs.43' },
          message: '2 of 2 devices accepted the action',
        }),
        { status: 200 },
      );
    renderForm();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await screen.findByText('Action status');
    expect(screen.getAllByText('2 of 2 devices accepted the action')).toHaveLength(1);
    expect(screen.getByTestId('action-status-summary').textContent).toBe(
      '2 of 2 devices accepted the action',
    );
  });

  it('asks before a destructive form is sent, naming what is lost: Cancel sends nothing, Confirm sends', async () => {
    const destructive: FormDefinition = {
      ...definition,
      // Keys of the forms namespace stand in for the form's own texts.
      confirm: { title: 'route.title', message: 'list.itemError', confirmLabel: 'action.save' },
    };
    const onSuccess = renderForm([], vi.fn(), destructive);
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await screen.findByTestId('confirm-message');
    expect(bodies).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('confirm-message')).toBeNull());
    expect(bodies).toEqual([]);
    expect(onSuccess).not.toHaveBeenCalled();

    save();
    const question = await screen.findByTestId('confirm-message');
    const dialog = question.closest('[role="dialog"]') as HTMLElement;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(bodies).toEqual([{ name: 'Box', kind: 'plain', tags: [] }]);
  });

  it('offers options that follow other values, and clears a value no longer offered', async () => {
    const following: FormDefinition = {
      ...definition,
      schema: z.object({ source: z.string().optional(), target: z.string().optional() }),
      fields: [
        {
          key: 'source',
          label: 'Source',
          type: 'radio',
          options: [
            { value: 'a', label: 'A' },
            { value: 'b', label: 'B' },
          ],
        },
        {
          key: 'target',
          label: 'Target',
          type: 'radio',
          options: (values) =>
            ['a', 'b', 'c'].filter((v) => v !== values.source).map((v) => ({ value: v, label: `T${v}` })),
        },
      ],
      defaults: { source: 'a', target: 'b' },
    };
    renderForm([], vi.fn(), following);
    expect(screen.queryByLabelText('Ta')).toBeNull();
    expect((screen.getByLabelText('Tb') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByLabelText('B'));
    await waitFor(() => expect(screen.queryByLabelText('Tb')).toBeNull());
    expect(screen.getByLabelText('Ta')).toBeTruthy();
    save();
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toEqual({ source: 'b' });
  });

  it("keeps a leaveOpen form's 'Action status' inside it, under a note that says so", async () => {
    answer = () =>
      new Response(
        JSON.stringify({ success: true, data: {}, meta: { channel: 'device-jobs.44' }, message: '1 of 1' }),
        { status: 200 },
      );
    const staying: FormDefinition = { ...definition, leaveOpen: true, statusInline: true, note: 'file.drop' };
    const onSuccess = renderForm([], vi.fn(), staying);
    expect(screen.getByTestId('form-note').textContent).toBe('Drop a file here or choose one');
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    const form = screen.getByTestId('form-test');
    expect(within(form).getByTestId('action-status-channel').textContent).toBe('device-jobs.44');
    expect(store.isOpen('form:test:status')).toBe(false);
  });

  it("says 'Failed to send request. Try again later' when the answer is not an object", async () => {
    answer = () => new Response('<html>Bad gateway</html>', { status: 502 });
    renderForm();
    fireEvent.change(screen.getByLabelText(/^Name/), { target: { value: 'Box' } });
    save();
    await waitFor(() =>
      expect(screen.getByTestId('form-errors').textContent).toBe('Failed to send request. Try again later'),
    );
  });

  // A value the schema refuses stays as typed when the field is left, and the message says why.
  it.each([
    {
      title: 'keeps a number out of range as typed when the field is left, and the schema says why',
      schema: z.strictObject({ period: z.number().min(60, 'The period must be at least 60 seconds') }),
      field: { key: 'period', label: 'Period', type: 'number', min: 60, max: 3600, step: 1 } as const,
      defaults: { period: 300 },
      typed: '59',
      message: 'The period must be at least 60 seconds',
    },
    {
      title: 'keeps every decimal typed or pasted, and the schema says when a step is not met',
      schema: z.strictObject({
        price: z.number().refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'In steps of 0.01'),
      }),
      field: { key: 'price', label: 'Price', type: 'number', min: 0, step: 0.01 } as const,
      defaults: {},
      typed: '1.005',
      message: 'In steps of 0.01',
    },
  ])('$title', async ({ schema, field, defaults, typed, message }) => {
    renderForm([], vi.fn(), { ...definition, schema, fields: [field], defaults });
    const input = screen.getByLabelText(new RegExp(`^${field.label}`)) as HTMLInputElement;
    fireEvent.change(input, { target: { value: typed } });
    fireEvent.blur(input);
    expect(input.value).toBe(typed);
    save();
    await screen.findByText(message);
    expect(bodies).toEqual([]);
  });
});
