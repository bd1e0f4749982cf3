import { describe, expect, it, vi } from 'vitest';

const options = vi.hoisted(() => ({ list: [] as { value: string; label: string }[] }));
vi.mock('#src/features/companies/api/companies', () => ({
  fetchCompanyOptions: async () => options.list,
}));

const { newTagForm } = await import('./tag-forms');

describe('the new tag form', () => {
  it('asks a caller who may choose the company to choose one, as its required mark says', async () => {
    options.list = [
      { value: '1', label: 'Fleetgate' },
      { value: '2', label: 'Acme' },
    ];
    const form = await newTagForm();
    expect(form.fields.find((f) => f.key === 'company_id')).toMatchObject({ required: true });
    const result = form.schema.safeParse({ name: 'Trucks', color: '#228be6' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['company_id'], message: 'Company is required' }),
    ]);
    expect(form.schema.safeParse({ company_id: '2', name: 'Trucks', color: '#228be6' }).success).toBe(true);
  });

  it('puts the tag in the caller’s own company when there is none to choose', async () => {
    options.list = [{ value: '2', label: 'Acme' }];
    const form = await newTagForm();
    expect(form.fields.some((f) => f.key === 'company_id')).toBe(false);
    expect(form.schema.safeParse({ name: 'Trucks', color: '#228be6' }).success).toBe(true);
  });
});
