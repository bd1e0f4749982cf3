import { describe, expect, it } from 'vitest';
import { BRAND_DEFAULTS, brandedModel, brandedModelImage, brandedSeries } from './brand';
import { brandSchema } from './schemas/brand';

const brand = {
  branded_devices: [{ original_model: 'RUT241', branded_model: 'Acme R1', branded_model_image: '/r1.svg' }],
  branded_device_series: [{ original: 'rutx', branded: 'Acme X' }],
};

describe('brand defaults and branded names (product §1)', () => {
  it('the light defaults are what the schema gives an empty brand', () => {
    expect(brandSchema.parse({})).toEqual(BRAND_DEFAULTS);
  });

  it('names a model by its vendor model, without case, and keeps an unbranded one', () => {
    expect(brandedModel(brand, { model: 'Gate 1', original_model: 'rut241' })).toBe('Acme R1');
    expect(brandedModel(brand, { model: 'RUT241', original_model: null })).toBe('Acme R1');
    expect(brandedModel(brand, { model: 'RUTX11', original_model: 'RUTX11' })).toBe('RUTX11');
    expect(brandedModel(brand, { model: null, original_model: null })).toBeNull();
    expect(brandedModelImage(brand, { original_model: 'RUT241' })).toBe('/r1.svg');
    expect(brandedModelImage(brand, { original_model: 'RUTX11' })).toBeUndefined();
  });

  it('names a series without case', () => {
    expect(brandedSeries(brand, 'RUTX')).toBe('Acme X');
    expect(brandedSeries(brand, 'tsw')).toBe('tsw');
    expect(brandedSeries(brand, null)).toBeNull();
  });
});

describe('what a brand may hide (product §2, §5)', () => {
  it('any screen but the brands pages, which would lock the super admin out of undoing it', () => {
    expect(brandSchema.safeParse({ disabled_routes: ['remote.access', 'tags.main'] }).success).toBe(true);
    const refused = brandSchema.safeParse({ disabled_routes: ['tags.main', 'system.brands'] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('The brands pages cannot be hidden');
  });
});
