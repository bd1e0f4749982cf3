import { pathOf } from '@fleetgate/shared/routes';
import { Alert, Button, Center, Group, Loader, Menu, Stack } from '@mantine/core';
import { IconArrowsMove, IconDots, IconFlag, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import { UnavailablePanel } from '#src/components/page/UnavailablePanel';
import { withNamespace } from '#src/i18n/i18n';
import { ApiError } from '#src/lib/http/errors';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import type { ResourcesTabCompany } from '../resources/components/CompanyResourcesTab';
import { useCompany } from './api/companies';
import { CompanyHeader } from './components/CompanyHeader';
import { CompanyDevicesTab, CompanyUsersTab } from './components/CompanyTabs';
import { PARENT_LEVELS } from './forms/company-forms';
import { useCompanyActions } from './hooks/use-company-actions';

const InvitationsTable = lazy(() =>
  import('../users/components/InvitationsTable').then((m) => ({ default: m.InvitationsTable })),
);
const CompanyTagsTab = lazy(() =>
  withNamespace('tags', () => import('../tags/components/TagsTable')).then((m) => ({
    default: m.CompanyTagsTab,
  })),
);
const CompanyResourcesTab = lazy(() =>
  withNamespace('resources', () => import('../resources/components/CompanyResourcesTab')).then((m) => ({
    default: m.CompanyResourcesTab,
  })),
);
const CompanyDataHistoryTab = lazy(() =>
  withNamespace('resources', () => import('../resources/components/CompanyDataHistoryTab')).then((m) => ({
    default: m.CompanyDataHistoryTab,
  })),
);

/** The tab bodies whose data exists; the other tabs say they are not available yet. */
function TabBody({ routeName, company }: { routeName: string; company: ResourcesTabCompany }) {
  const companyId = company.id;
  switch (routeName) {
    case 'company.devices':
      return <CompanyDevicesTab companyId={companyId} />;
    case 'company.userstable':
      return <CompanyUsersTab companyId={companyId} />;
    case 'company.invitations':
      return (
        <Suspense fallback={<Loader />}>
          <InvitationsTable company={company} />
        </Suspense>
      );
    case 'company.tags':
      return (
        <Suspense fallback={<Loader />}>
          <CompanyTagsTab companyId={companyId} />
        </Suspense>
      );
    case 'company.data-history':
      return (
        <Suspense fallback={<Loader />}>
          <CompanyDataHistoryTab company={company} />
        </Suspense>
      );
    case 'company.resources.credits':
    case 'company.resources.codes':
    case 'company.resources.data-history':
      return (
        <Suspense fallback={<Loader />}>
          <CompanyResourcesTab tab={routeName} company={company} />
        </Suspense>
      );
    default:
      return <UnavailablePanel tab />;
  }
}

/** company.info and its tabs (product §2): the company header over the tab the route names. */
export function CompanyPage({ route, chain, params }: PageProps) {
  const { t } = useTranslation('companies');
  const navigate = useNavigate();
  const id = Number(params.company_id);
  const company = useCompany(id);
  const actions = useCompanyActions();
  const c = company.data;

  if (company.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (!c) {
    const missing = company.error instanceof ApiError && company.error.status === 404;
    return (
      <PageFrame chain={chain} params={params}>
        <Alert color="red" role="alert" data-testid="company-missing">
          {missing ? t('page.notFound') : failureMessage(company.error, 'get', 'company')}
        </Alert>
      </PageFrame>
    );
  }

  const manageMenu = actions.canEdit(c) && (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" rightSection={<IconDots size={16} />} data-testid="company-manage">
          {t('page.manage')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => void actions.edit(c)}>
          {t('action.edit')}
        </Menu.Item>
        {actions.canFlag(c) && (
          <Menu.Item leftSection={<IconFlag size={16} />} onClick={() => void actions.flags(c)}>
            {t('action.flags')}
          </Menu.Item>
        )}
        {actions.canMove(c) && (
          <Menu.Item leftSection={<IconArrowsMove size={16} />} onClick={() => void actions.move(c)}>
            {t('action.move')}
          </Menu.Item>
        )}
        {actions.canDelete(c) && (
          <Menu.Item
            color="red"
            leftSection={<IconTrash size={16} />}
            onClick={async () => {
              if (await actions.remove(c)) navigate(pathOf('users.companies'));
            }}
          >
            {t('action.delete')}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );

  return (
    <PageFrame
      chain={chain}
      params={params}
      title={c.name}
      names={{ 'company.info': c.name }}
      actions={
        <Group gap="xs">
          {actions.canCreate && (PARENT_LEVELS as readonly number[]).includes(c.level) && (
            <Button
              variant="default"
              leftSection={<IconPlus size={16} />}
              onClick={() => void actions.create(c.id)}
            >
              {t('action.createSubsidiary')}
            </Button>
          )}
          {manageMenu}
        </Group>
      }
    >
      <Stack>
        <CompanyHeader company={c} />
        <TabBody routeName={route.name} company={c} />
      </Stack>
    </PageFrame>
  );
}
