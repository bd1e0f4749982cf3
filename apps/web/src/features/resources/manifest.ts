import i18next from 'i18next';
import { loaderWith } from '#src/i18n/i18n';
import { defineFeature } from '#src/lib/define-feature';
import { dialog } from '#src/lib/dialogs/registry';

/** Every screen, window and form of the feature brings its texts (the 'resources' namespace). */
const load = loaderWith('resources');

const forms = () => load(() => import('./forms/resource-forms'));

/**
 * Resources (product §2 administration.resources, service.add-credits; §3 newPool, movePools,
 * newCode, activateCode, buyData): the credit history, the transfer codes, the company data
 * history and overview, the redeem page, the 'credit report' dialog and the resource forms. A
 * company's resources and data history tabs are drawn by the company page with this feature's
 * tables.
 */
export const resourcesFeature = defineFeature({
  pages: {
    'services.credit-history': () =>
      load(() => import('./CreditHistoryPage')).then((m) => m.CreditHistoryPage),
    'services.credit-codes': () => load(() => import('./CreditCodesPage')).then((m) => m.CreditCodesPage),
    'services.data-history': () => load(() => import('./DataPages')).then((m) => m.DataHistoryPage),
    'services.data-overview': () => load(() => import('./DataPages')).then((m) => m.DataOverviewPage),
    'service.add-credits': () => load(() => import('./RedeemCodePage')).then((m) => m.RedeemCodePage),
  },
  dialogs: {
    creditReport: dialog(
      () => load(() => import('./dialogs/CreditReportDialog')).then((m) => m.CreditReportDialog),
      {
        title: () => i18next.t('resources:report.title'),
        size: 'sm',
      },
    ),
  },
  forms: {
    newPool: () => forms().then((m) => m.newPoolForm()),
    movePools: () => forms().then((m) => m.movePoolsForm()),
    newCode: () => forms().then((m) => m.newCodeForm()),
    activateCode: () => forms().then((m) => m.activateCodeForm),
    buyData: () => forms().then((m) => m.buyDataForm()),
  },
});
