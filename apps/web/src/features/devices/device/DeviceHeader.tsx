import { pathOf } from '@fleetgate/shared/routes';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatTime } from '../../../lib/time';
import type { DeviceDetail } from '../api/types';
import { ModelPicture } from '../components/ModelPicture';
import { formatUptime, text } from '../utils/format';

function Field({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" data-testid={testId}>
        {children}
      </Text>
    </Stack>
  );
}

/**
 * The device page header (issue 5 §8): model picture, serial, MAC, firmware, company and
 * tags. Everything the device reports is shown as text, never as markup.
 */
export function DeviceHeader({ device, companyLink }: { device: DeviceDetail; companyLink: boolean }) {
  const { t } = useTranslation('devices');
  const state = device.state ?? {};
  return (
    <Paper withBorder p="md" data-testid="device-header">
      <Group align="flex-start" wrap="nowrap" gap="lg">
        <Stack align="center" gap={4} w={96}>
          <ModelPicture model={device.original_model ?? device.model} size={64} />
          <Text size="sm" fw={600} ta="center" data-testid="device-model">
            {text(device.model)}
          </Text>
        </Stack>
        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="sm" verticalSpacing="xs" style={{ flex: 1 }}>
          <Field label={t('column.serial')} testId="device-serial">
            {text(device.serial)}
          </Field>
          <Field label={t('column.mac')} testId="device-mac">
            {text(device.mac)}
          </Field>
          <Field label={t('column.firmware')} testId="device-firmware">
            {text(device.firmware)}
          </Field>
          <Field label={t('column.company')}>
            {companyLink ? (
              <Anchor
                component={Link}
                to={pathOf('company.info', { company_id: device.company_id })}
                size="sm"
              >
                {text(device.company_name)}
              </Anchor>
            ) : (
              text(device.company_name)
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
                  <Badge key={tag.id} color={tag.color} variant="light" size="sm">
                    {tag.name}
                  </Badge>
                ))}
              </Group>
            ) : (
              '-'
            )}
          </Field>
        </SimpleGrid>
      </Group>
    </Paper>
  );
}
