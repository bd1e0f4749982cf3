import { pathOf } from '@fleetgate/shared/routes';
import {
  Alert,
  Anchor,
  Button,
  Center,
  ColorSwatch,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openForm } from '#src/components/forms/open-form';
import { PageFrame } from '#src/components/page/PageFrame';
import { useModelName } from '#src/lib/brand/context';
import { ApiError } from '#src/lib/http/errors';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { type TagChartJson, useTagChart } from './api/tags';
import { type Bar, BarChart } from './components/BarChart';
import { editTagForm } from './forms/tag-forms';

/** Colours of the status buckets of product §4. */
const STATUS_COLORS = {
  offline: 'var(--mantine-color-red-6)',
  online: 'var(--mantine-color-green-6)',
  pending: 'var(--mantine-color-yellow-6)',
  not_activated: 'var(--mantine-color-gray-6)',
} as const;

/** The chart's rows: every status bucket (zeros too), and the models present. */
export function chartBars(
  chart: TagChartJson,
  t: (key: string) => string,
  modelName: (device: { model: string | null }) => string | null = (d) => d.model,
): { statuses: Bar[]; models: Bar[] } {
  return {
    statuses: chart.by_status.map((s) => ({
      key: s.status,
      label: t(`status.${s.status}`),
      value: s.count,
      color: STATUS_COLORS[s.status],
    })),
    models: chart.by_model.map((m) => ({
      key: m.model ?? '',
      label: modelName(m) ?? t('chart.unknownModel'),
      value: m.count,
      color: chart.tag.color,
    })),
  };
}

/** management.tag_chart (product §2): the tag's devices by status and by model. */
export function TagChartPage({ chain, params }: PageProps) {
  const { t } = useTranslation('tags');
  const { can } = useSession();
  const modelName = useModelName();
  const id = Number(params.id);
  const chart = useTagChart(id);

  if (chart.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (!chart.data) {
    const missing = chart.error instanceof ApiError && chart.error.status === 404;
    return (
      <PageFrame chain={chain} params={params}>
        <Alert color="red" role="alert" data-testid="tag-missing">
          {missing ? t('chart.notFound') : failureMessage(chart.error, 'get', 'tag')}
        </Alert>
      </PageFrame>
    );
  }
  const { tag, total } = chart.data;
  const bars = chartBars(chart.data, t, modelName);

  return (
    <PageFrame
      chain={chain}
      params={params}
      title={tag.name}
      actions={
        can('manage_tags') && (
          <Button
            variant="default"
            leftSection={<IconPencil size={16} />}
            onClick={() => void openForm(editTagForm, { id: tag.id })}
          >
            {t('action.edit')}
          </Button>
        )
      }
    >
      <Stack>
        <Paper withBorder p="md" data-testid="tag-summary">
          <Group gap="lg" align="flex-start">
            <ColorSwatch color={tag.color} size={28} role="img" aria-label={t('field.color')} />
            <Stack gap={4} style={{ flex: 1 }}>
              <Text size="sm" data-testid="tag-summary-description">
                {tag.description || t('chart.noDescription')}
              </Text>
              <Text size="sm" c="dimmed">
                {t('chart.company')}:{' '}
                {can('view_companies') ? (
                  <Anchor component={Link} to={pathOf('company.info', { company_id: tag.company_id })}>
                    {tag.company_name}
                  </Anchor>
                ) : (
                  tag.company_name
                )}
              </Text>
            </Stack>
            <Stack gap={0} align="flex-end">
              <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
                {t('chart.total')}
              </Text>
              <Text fz={28} fw={700} data-testid="tag-chart-total">
                {total}
              </Text>
            </Stack>
          </Group>
        </Paper>
        {total === 0 && (
          <Text c="dimmed" data-testid="tag-chart-empty">
            {t('chart.empty')}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              {t('chart.byStatus')}
            </Title>
            <BarChart title={t('chart.byStatus')} bars={bars.statuses} testId="chart-status" />
          </Paper>
          <Paper withBorder p="md">
            <Title order={4} mb="sm">
              {t('chart.byModel')}
            </Title>
            {bars.models.length ? (
              <BarChart title={t('chart.byModel')} bars={bars.models} testId="chart-model" />
            ) : (
              <Text c="dimmed" size="sm">
                {t('chart.noModels')}
              </Text>
            )}
          </Paper>
        </SimpleGrid>
      </Stack>
    </PageFrame>
  );
}
