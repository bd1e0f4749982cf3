import { Grid, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type Period = { from: string; to: string };

/**
 * The From and To days of a resources table's filters, as two columns of its filter grid; a
 * To before From is said under To (the table then asks for nothing).
 */
export function PeriodFilter({
  period,
  onChange,
  testId,
}: {
  period: Period;
  onChange(period: Period): void;
  testId: string;
}) {
  const { t } = useTranslation('resources');
  const misordered = period.from !== '' && period.to !== '' && period.to < period.from;
  return (
    <>
      <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
        <TextInput
          type="date"
          label={t('filter.from')}
          value={period.from}
          onChange={(e) => onChange({ ...period, from: e.currentTarget.value })}
          data-testid={`${testId}-from`}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3, lg: 2 }}>
        <TextInput
          type="date"
          label={t('filter.to')}
          value={period.to}
          onChange={(e) => onChange({ ...period, to: e.currentTarget.value })}
          error={misordered ? t('report.periodOrder') : undefined}
          data-testid={`${testId}-to`}
        />
      </Grid.Col>
    </>
  );
}
