import { SEARCH_DEBOUNCE_MS } from '@fleetgate/shared/constants';
import { useDebouncedValue } from '@mantine/hooks';
import { useMemo, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { FormValues } from '#src/lib/forms/types';
import { useSession } from '#src/lib/session/session-context';
import { type CompanyOption, useCompanyOptions } from '../api/users';
import { OptionSelect } from './OptionSelect';

type Props = {
  form: UseFormReturn<FormValues>;
  name: string;
  label: string;
  /** Companies always offered (the preset one), whatever the search finds. */
  known?: readonly CompanyOption[];
  autoFocus?: boolean;
};

/**
 * The company selector: companies in reach, searched on the server (product §7 selector
 * lists, limit 100). A caller who does not see companies is offered their own.
 */
export function CompanySelect({ form, name, label, known = [], autoFocus }: Props) {
  const { t } = useTranslation('users');
  const { user, can } = useSession();
  const seesCompanies = can('view_companies');
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const selected = form.watch(name) as string | undefined;
  // While a company is chosen the box shows its name; search only what the user types beyond it.
  const companies = useCompanyOptions(q, seesCompanies);
  const data = useMemo(() => {
    const all = new Map<number, string>();
    for (const c of known) all.set(c.id, c.name);
    if (!seesCompanies) all.set(user.company_id, user.company_name);
    for (const c of companies.data ?? []) all.set(c.id, c.name);
    return [...all].map(([id, companyName]) => ({ value: String(id), label: `${companyName} #${id}` }));
  }, [known, seesCompanies, user.company_id, user.company_name, companies.data]);
  const selectedLabel = data.find((o) => o.value === selected)?.label;
  return (
    <OptionSelect
      form={form}
      name={name}
      label={label}
      data={data}
      searchable
      autoFocus={autoFocus}
      loading={companies.isFetching}
      placeholder={t('field.companyPlaceholder')}
      nothingFound={t('field.noCompanies')}
      onSearchChange={(value) => setSearch(value === selectedLabel ? '' : value)}
    />
  );
}
