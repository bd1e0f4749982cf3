import { Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconFileDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindow } from '#src/lib/dialogs/window-context';
import { useAction } from '#src/lib/http/use-action';
import { currentTimezone } from '#src/lib/time';
import { resourceActions } from '../api/resources';
import { defaultPeriod, periodProblem, periodQuery, type ReportPeriod } from '../utils/report-period';

export type CreditReportProps = { companyId?: number };

/**
 * The 'credit report' dialog of product §2: a period, then the movements of that period as a
 * CSV file (GET /credits/report), of one company when opened from its page. Days are the
 * user's timezone's, both ends included.
 */
export function CreditReportDialog({ companyId }: CreditReportProps) {
  const { t } = useTranslation('resources');
  const window = useWindow();
  const zone = currentTimezone();
  const [period, setPeriod] = useState<ReportPeriod>(() => defaultPeriod(zone));
  const [problem, setProblem] = useState<string | null>(null);
  const download = useAction({
    call: (query: { from: string; to: string; company_id?: number }) => resourceActions.downloadReport(query),
    failure: { verb: 'download', item: 'credit report' },
    onSuccess: () => window?.close(),
  });

  function submit() {
    const found = periodProblem(period);
    setProblem(found);
    if (found) return;
    void download.run({
      ...periodQuery(period, zone),
      ...(companyId === undefined ? {} : { company_id: companyId }),
    });
  }

  const change = (key: keyof ReportPeriod) => (value: string) => {
    setPeriod((current) => ({ ...current, [key]: value }));
    setProblem(null);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
      data-testid="credit-report"
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {t('report.intro')}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            type="date"
            label={t('report.from')}
            required
            value={period.from}
            onChange={(e) => change('from')(e.currentTarget.value)}
            data-autofocus
            data-testid="credit-report-from"
          />
          <TextInput
            type="date"
            label={t('report.to')}
            required
            value={period.to}
            onChange={(e) => change('to')(e.currentTarget.value)}
            error={problem ? t(problem) : undefined}
            data-testid="credit-report-to"
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => window?.close()}>
            {t('report.cancel')}
          </Button>
          <Button
            type="submit"
            leftSection={<IconFileDownload size={16} />}
            loading={download.pending}
            data-testid="credit-report-download"
          >
            {t('report.download')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
