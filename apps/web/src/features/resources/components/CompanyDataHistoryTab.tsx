import { useSession } from '#src/lib/session/session-context';
import { DataUsageTable } from './DataUsageTable';
import { NotAllowed } from './NotAllowed';

/** A company's 'Data history' tab (product §2 company.data-history): the data it spent, day by day. */
export function CompanyDataHistoryTab({ company }: { company: { id: number } }) {
  const { can } = useSession();
  return can('view_company_data_history') ? <DataUsageTable companyId={company.id} /> : <NotAllowed />;
}
