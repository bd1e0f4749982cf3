import { DEFAULT_BRAND } from '@fleetgate/shared/schemas/brand';
import { describe, expect, it } from 'vitest';
import { buyLinkFor } from './buy-link';

const brand = { ...DEFAULT_BRAND, buy_link: 'https://shop.example/buy' };
const low = { type: 'creditAmountTooLow' };

describe("'Get more resources' link (product §2 Header widget 1, §6 buy link)", () => {
  it('is the brand buy link on creditAmountTooLow for a user whose company shows payment', () => {
    expect(buyLinkFor(low, brand, { show_payment: true })).toBe('https://shop.example/buy');
  });

  it('is absent on other kinds, without a buy link, for other themes and without show_payment', () => {
    expect(buyLinkFor({ type: 'message' }, brand, { show_payment: true })).toBeNull();
    expect(buyLinkFor(low, DEFAULT_BRAND, { show_payment: true })).toBeNull();
    expect(buyLinkFor(low, { ...brand, default: false }, { show_payment: true })).toBeNull();
    expect(buyLinkFor(low, brand, { show_payment: false })).toBeNull();
  });
});
