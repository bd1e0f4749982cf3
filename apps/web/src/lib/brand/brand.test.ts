import { BRAND_DEFAULTS } from '@fleetgate/shared/brand';
import { describe, expect, it } from 'vitest';
import { readBrand, showBrandInDocument } from './brand';

describe('reading the brand without a schema', () => {
  it('keeps what has the right type and defaults the rest', () => {
    const brand = readBrand({ app_name: 'Acme', disabled_routes: 'x', default: 'no', main_color: '#112233' });
    expect(brand.app_name).toBe('Acme');
    expect(brand.main_color).toBe('#112233');
    expect(brand.disabled_routes).toEqual([]);
    expect(brand.default).toBe(true);
    expect(readBrand(null)).toEqual(BRAND_DEFAULTS);
  });

  it('never lets a colour that is not #RRGGBB reach a style sheet', () => {
    const brand = readBrand({ main_color: 'red;}body{display:none', dark_mode_text_color: 'url(x)' });
    expect(brand.main_color).toBe(BRAND_DEFAULTS.main_color);
    expect(brand.dark_mode_text_color).toBe('');
  });

  it('titles the tab and swaps its icon', () => {
    document.head.innerHTML = '<link rel="icon" type="image/svg+xml" href="/favicon.svg">';
    showBrandInDocument({
      ...BRAND_DEFAULTS,
      title_text: 'Acme RMS',
      favicon: '/api/brands/2/images/favicon?v=1',
    });
    expect(document.title).toBe('Acme RMS');
    expect(document.querySelector('link[rel="icon"]')?.getAttribute('href')).toBe(
      '/api/brands/2/images/favicon?v=1',
    );
  });
});
