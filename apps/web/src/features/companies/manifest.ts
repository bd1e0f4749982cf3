import { ROUTES } from '@fleetgate/shared/routes';
import { loaderWith } from '#src/i18n/i18n';
import { defineFeature } from '#src/lib/define-feature';

/** Every screen, window and form of the feature brings its texts (the 'companies' namespace). */
const load = loaderWith('companies');

const companyPage = () => load(() => import('./CompanyPage')).then((m) => m.CompanyPage);
const forms = () => load(() => import('./forms/company-forms'));

/** The tabs under company.info (product §2): the company page draws each, the body chosen by route name. */
const COMPANY_TABS = ROUTES.filter(
  (route) => route.name.startsWith('company.') && route.path?.startsWith('/companies/:company_id/'),
).map((route) => route.name);

/** Companies: the list, the tree, a company's page and tabs, the company forms (product §2, §3). */
export const companiesFeature = defineFeature({
  pages: {
    'users.companies': () => load(() => import('./CompaniesPage')).then((m) => m.CompaniesPage),
    'company.tree': () => load(() => import('./CompanyTreePage')).then((m) => m.CompanyTreePage),
    ...Object.fromEntries(COMPANY_TABS.map((name) => [name, companyPage])),
  },
  forms: {
    newCompany: () => forms().then((m) => m.newCompanyForm()),
    editCompany: () => forms().then((m) => m.editCompanyForm),
    moveCompany: () => forms().then((m) => m.moveCompanyForm()),
    companyFlags: () => forms().then((m) => m.companyFlagsForm),
  },
});
