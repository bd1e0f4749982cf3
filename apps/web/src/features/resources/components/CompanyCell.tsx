import { pathOf } from '@fleetgate/shared/routes';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CellName } from '#src/components/table/CellName';
import { useSession } from '#src/lib/session/session-context';
import { companyRef } from '../utils/movements';

/**
 * A company of a movement or a code: a dash for none (the issuer), 'Another company' for one
 * outside the caller's reach (its name is never sent), else the name, linked for holders of
 * view_companies.
 */
export function CompanyCell({ id, name }: { id: number | null; name: string | null }) {
  const { t } = useTranslation('resources');
  const { can } = useSession();
  const ref = companyRef(id, name);
  if (ref.kind === 'none')
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  if (ref.kind === 'hidden')
    return (
      <Text size="sm" c="dimmed" fs="italic">
        {t('company.other')}
      </Text>
    );
  return (
    <CellName
      name={ref.name}
      lines={1}
      maw="14rem"
      {...(can('view_companies') ? { to: pathOf('company.info', { company_id: ref.id }) } : {})}
    />
  );
}
