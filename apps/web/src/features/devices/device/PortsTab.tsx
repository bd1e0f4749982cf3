import { Alert, Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PageProps } from '#src/lib/routing/page';
import type { DeviceDetail } from '../api/types';
import { PORT_SERVICES } from '../utils/constants';
import { formatUnit, text } from '../utils/format';
import { DeviceFrame } from './DeviceFrame';

type PortState = { name?: unknown; link?: unknown; speed?: unknown; duplex?: unknown };

/** Tab device.ports: link state per port (count from the capabilities) and the services of product §9. */
export function PortsTab({ chain, params }: PageProps) {
  return (
    <DeviceFrame chain={chain} params={params}>
      {(device) => <Ports device={device} />}
    </DeviceFrame>
  );
}

/** The rows of the port table: one per port the model has, filled from the last reported state. */
export function portRows(portCount: number, reported: unknown): PortState[] {
  const ports = Array.isArray(reported) ? (reported as PortState[]) : [];
  const count = Math.max(portCount, ports.length);
  return Array.from({ length: count }, (_, i) => ports[i] ?? {});
}

function Ports({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('devices');
  const rows = portRows(device.capabilities.port_count, device.state?.ports);
  return (
    <Stack gap="md">
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Group justify="space-between">
            <Title order={4}>{t('ports.title')}</Title>
            <Text size="sm" c="dimmed" data-testid="port-count">
              {t('ports.count', { count: device.capabilities.port_count })}
            </Text>
          </Group>
          {rows.length === 0 ? (
            <Alert color="gray" variant="light">
              {t('ports.none')}
            </Alert>
          ) : (
            <SimpleGrid cols={{ base: 2, sm: 4, lg: 6 }} data-testid="ports">
              {rows.map((port, index) => {
                const up = port.link === 'up';
                const known = port.link === 'up' || port.link === 'down';
                return (
                  <Paper
                    // biome-ignore lint/suspicious/noArrayIndexKey: ports are positions on the unit.
                    key={index}
                    withBorder
                    p="xs"
                    data-testid="port"
                    data-link={known ? String(port.link) : 'unknown'}
                  >
                    <Stack gap={2} align="center">
                      <Text fw={600} size="sm">
                        {text(port.name ?? `${t('ports.port')} ${index + 1}`)}
                      </Text>
                      <Badge color={known ? (up ? 'green' : 'gray') : 'dark'} variant="light">
                        {known ? t(up ? 'ports.up' : 'ports.down') : '-'}
                      </Badge>
                      <Text size="xs" c="dimmed">
                        {up ? `${formatUnit(port.speed, 'Mbit/s')} · ${text(port.duplex)}` : '-'}
                      </Text>
                    </Stack>
                  </Paper>
                );
              })}
            </SimpleGrid>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={4}>{t('ports.services')}</Title>
          <Table verticalSpacing={4} data-testid="port-services">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('ports.port')}</Table.Th>
                <Table.Th>{t('ports.service')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {PORT_SERVICES.map((entry) => (
                <Table.Tr key={entry.port}>
                  <Table.Td>{entry.port}</Table.Td>
                  <Table.Td>{entry.services.join('/')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Stack>
      </Paper>
    </Stack>
  );
}
