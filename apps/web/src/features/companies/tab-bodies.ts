/** The company tabs whose screens exist (CompanyPage draws them); the others show their frame. */
export const COMPANY_TAB_BODIES: readonly string[] = [
  'company.devices',
  'company.data-history',
  'company.userstable',
  'company.invitations',
  'company.tags',
  'company.resources.credits',
  'company.resources.codes',
  'company.resources.data-history',
];
