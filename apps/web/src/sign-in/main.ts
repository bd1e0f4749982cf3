import './sign-in.css';
import { BRAND_DEFAULTS } from '@fleetgate/shared/brand';
import { loadBrand, showBrandInDocument } from '#src/lib/brand/brand';
import { clientHandlers } from '#src/lib/http/handlers';
import { verifyThrough } from '#src/lib/http/verification';
import { followColourScheme, wearBrand } from './look';
import { renderSignIn } from './page';
import { loadTexts, t } from './texts';
import { openVerificationDialog } from './verification-dialog';

/**
 * The sign-in page's start (sign-in.html): colour scheme at once, then the brand of this host
 * name (product §1) and the reader's language side by side, then the form.
 */
async function start(): Promise<void> {
  followColourScheme();
  const [brand] = await Promise.all([navigator.onLine ? loadBrand() : BRAND_DEFAULTS, loadTexts()]);
  showBrandInDocument(brand);
  wearBrand(brand);
  clientHandlers.verify = verifyThrough(
    openVerificationDialog,
    () => new Error(t('dialogs', 'verify.connectFailed')),
  );
  renderSignIn(document.getElementById('root')!, brand);
}

void start();
