import { pathOf } from '@fleetgate/shared/routes';
import { Anchor, Badge, Flex, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useModelName, useSeriesName } from '#src/lib/brand/context';
import { formatTime } from '#src/lib/time';
import type { DeviceDetail } from '../api/types';
import { ModelPicture } from '../components/ModelPicture';
import { formatUptime, text } from '../utils/format';

/** A label and its value; a value too long for its column (a MAC, an IMEI, a name without spaces) wraps inside it. */
function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0} miw={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/**
 * The device page header: model picture, serial, MAC, firmware, company and
 * tags. Everything the device reports is shown as text, never as markup.
 */
export function DeviceHeader({ device, companyLink }: { device: DeviceDetail; companyLink: boolean }) {
  const { t } = useTranslation('devices');
  const modelName = useModelName();
  const seriesName = useSeriesName();
  const state = device.state ?? {};
  return (
    <Paper withBorder p="md" data-testid="device-header">
      {/* On a phone the picture sits above the facts, which get the whole width. */}
      <Flex direction={{ base: 'column', xs: 'row' }} align={{ base: 'stretch', xs: 'flex-start' }} gap="lg">
        <Stack align="center" gap={4} w={{ base: '100%', xs: 96 }} style={{ flex: 'none' }}>
          <ModelPicture device={device} size={64} />
          <Text size="sm" fw={600} ta="center" data-testid="device-model">
            {text(modelName(device))}
          </Text>
        </Stack>
        <SimpleGrid
          cols={{ base: 2, sm: 3, lg: 4 }}
          spacing="sm"
          verticalSpacing="xs"
          style={{ flex: 1, minWidth: 0 }}
        >
          <Field label={t('column.serial')} testId="device-serial">
            {text(device.serial)}
          </Field>
          <Field label={t('column.mac')} testId="device-mac">
            {text(device.mac)}
          </Field>
          <Field label={t('column.firmware')} testId="device-firmware">
            {text(device.firmware)}
          </Field>
          <Field label={t('field.series')} testId="device-series">
            {text(seriesName(device.capabilities.device_series))}
          </Field>
          <Field label={t('column.company')}>
            {/* A long company name is cut after two lines; hovering shows it whole. */}
            {companyLink ? (
              <Anchor
                component={Link}
                to={pathOf('company.info', { company_id: device.company_id })}
                size="sm"
                lineClamp={2}
                title={text(device.company_name)}
                data-testid="device-company"
              >
                {text(device.company_name)}
              </Anchor>
            ) : (
              <Text size="sm" lineClamp={2} title={text(device.company_name)} data-testid="device-company">
                {text(device.company_name)}
              </Text>
            )}
          </Field>
          <Field label={t('column.imei')}>{text(device.imei)}</Field>
          <Field label={t('field.hostname')} testId="device-hostname">
            {text(device.hostname)}
          </Field>
          <Field label={t('column.operator')}>{text(device.operator ?? state.operator)}</Field>
          <Field label={t('column.wan_ip')}>{text(device.wan_ip)}</Field>
          <Field label={t('column.uptime')}>{formatUptime(device.uptime)}</Field>
          <Field label={t('column.last_seen_at')}>{formatTime(device.last_seen_at)}</Field>
          <Field label={t('field.description')}>{text(device.description)}</Field>
          <Field label={t('field.tags')}>
            {device.tags?.length ? (
              <Group gap={4} data-testid="device-tags">
                {device.tags.map((tag) => (
                  <Badge key={tag.id} color={tag.color} variant="light" size="sm" maw="100%" title={tag.name}>
                    {tag.name}
                  </Badge>
                ))}
              </Group>
            ) : (
              '-'
            )}
          </Field>
        </SimpleGrid>
      </Flex>
    </Paper>
  );
}
