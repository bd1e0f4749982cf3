import type { BrandSettings } from '@fleetgate/shared/brand';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import type { WebNotification } from '@fleetgate/shared/schemas/notifications';

/**
 * The 'Get more resources' link of a notification (product §2 Header widget 1): only on
 * creditAmountTooLow, to the brand's buy_link, and (product §6) only for the default theme
 * when the user's company shows payment.
 */
export function buyLinkFor(
  notification: Pick<WebNotification, 'type'>,
  brand: Pick<BrandSettings, 'buy_link' | 'default'>,
  user: Pick<CurrentUser, 'show_payment'>,
): string | null {
  if (notification.type !== 'creditAmountTooLow') return null;
  if (!brand.buy_link || !brand.default || !user.show_payment) return null;
  return brand.buy_link;
}
