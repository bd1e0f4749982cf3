import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearResponseCache } from '#src/lib/http/client';
import {
  buyDataForm,
  buyDataFormSchema,
  movePoolsForm,
  newPoolForm,
  newPoolFormSchema,
} from './resource-forms';

const issues = (result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) => (result.error?.issues ?? []).map((issue) => `${issue.path.join('.')}: ${issue.message}`);

function answer(routes: Record<string, unknown>) {
  vi.stubGlobal('fetch', async (url: string) => {
    const path = new URL(url, 'http://x').pathname;
    return new Response(JSON.stringify({ success: true, data: routes[path] ?? [] }));
  });
}
afterEach(() => {
  vi.unstubAllGlobals();
  // The type list is a cached selector list (product §9).
  clearResponseCache();
});

describe('newPool (product §3, §5: price and pro-forma only for the paid types 2, 4, …, 14)', () => {
  const pool = { credit_count: '10', company_id: '5' };

  it('asks for a price and a pro-forma number for a paid type, before anything is sent', () => {
    expect(issues(newPoolFormSchema.safeParse({ ...pool, credit_type_id: '2' }))).toEqual([
      'credit_price: Credit price is required',
      'pro_form_nr: Pro-forma number is required',
    ]);
    expect(
      issues(newPoolFormSchema.safeParse({ ...pool, credit_type_id: '2', pro_form_nr: '  ' })),
    ).toContain('pro_form_nr: Pro-forma number is required');
    expect(
      newPoolFormSchema.parse({ ...pool, credit_type_id: '14', credit_price: 12.5, pro_form_nr: 'PF-1' }),
    ).toEqual({
      credit_type_id: 14,
      credit_count: 10,
      company_id: 5,
      credit_price: '12.50',
      pro_form_nr: 'PF-1',
    });
  });

  it('needs neither for a free type, and refuses a count of 0 or with letters', () => {
    expect(newPoolFormSchema.parse({ ...pool, credit_type_id: '1' })).toEqual({
      credit_type_id: 1,
      credit_count: 10,
      company_id: 5,
    });
    expect(issues(newPoolFormSchema.safeParse({ ...pool, credit_type_id: '1', credit_count: '0' }))).toEqual([
      'credit_count: Resource count must be at least 1',
    ]);
    expect(
      issues(newPoolFormSchema.safeParse({ ...pool, credit_type_id: '1', credit_count: '1e3' })),
    ).toEqual(['credit_count: Resource count must contain digits only']);
  });

  it('shows the price (step 0.01, at least 0) and pro-forma fields only once a paid type is chosen', async () => {
    answer({
      '/api/credits/types': [
        { id: 1, name: 'Free credits', payment_type: 'free' },
        { id: 2, name: 'Paid credits', payment_type: 'paid' },
      ],
      '/api/companies': [{ id: 5, name: 'Acme' }],
    });
    const form = await newPoolForm();
    const shown = (values: Record<string, unknown>) =>
      form.fields
        .filter((f) => !f.depends || (typeof f.depends === 'function' && f.depends(values)))
        .map((f) => f.key);
    expect(shown({ credit_type_id: '1' })).toEqual(['credit_type_id', 'credit_count', 'company_id']);
    expect(shown({ credit_type_id: '2' })).toEqual([
      'credit_type_id',
      'credit_count',
      'company_id',
      'credit_price',
      'pro_form_nr',
    ]);
    expect(form.fields.find((f) => f.key === 'credit_price')).toMatchObject({ min: 0, step: 0.01 });
    expect(form.fields[0]?.options).toEqual([
      { value: '1', label: 'Free credits' },
      { value: '2', label: 'Paid credits' },
    ]);
  });
});

describe('movePools (product §3)', () => {
  it('names types as the caller sees them and never offers the source as the target', async () => {
    answer({
      '/api/credits/types': [{ id: 2, name: 'Credits', payment_type: 'paid' }],
      '/api/companies': [
        { id: 2, name: 'Acme' },
        { id: 3, name: 'Acme North' },
      ],
    });
    const form = await movePoolsForm({ source: 2 });
    expect(form.defaults).toMatchObject({ credit_type_name: 'Credits', source: '2' });
    const target = form.fields.find((f) => f.key === 'target')!;
    expect(typeof target.options === 'function' && target.options({ source: '2' })).toEqual([
      { value: '3', label: 'Acme North #3' },
    ]);
  });
});

describe('buyData (product §3, §5, §9: 1 credit = 2 GB)', () => {
  it('strips leading zeros and names the data the credits buy, for the confirmation', () => {
    expect(buyDataFormSchema.parse({ company_id: '4', credits: '003' })).toEqual({
      company_id: 4,
      credits: 3,
      count: 3,
      data: '6 GB',
    });
    expect(buyDataFormSchema.parse({ company_id: '4', credits: '64' }).data).toBe('128 GB');
    expect(issues(buyDataFormSchema.safeParse({ company_id: '4', credits: '000' }))).toEqual([
      'credits: Credits must be at least 1',
    ]);
    expect(issues(buyDataFormSchema.safeParse({ company_id: '4', credits: '123456789012345' }))).toEqual([
      'credits: Credits must be at most 14 digits',
    ]);
  });

  it('sends only the company and the credits, and keeps the company it was opened for', async () => {
    answer({ '/api/companies': [{ id: 5, name: 'Other' }] });
    const form = await buyDataForm({ company: { id: 9, name: 'Far away' } });
    expect(form.defaults).toMatchObject({ company_id: '9' });
    expect(form.fields[0]?.options).toEqual([
      { value: '9', label: 'Far away #9' },
      { value: '5', label: 'Other #5' },
    ]);
    const checked = buyDataFormSchema.parse({ company_id: '9', credits: '2' });
    expect(form.toBody?.(checked, { id: undefined })).toEqual({ company_id: 9, credits: 2 });
  });
});
