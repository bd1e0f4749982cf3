import { PERMISSIONS } from '@fleetgate/shared/permissions';
import { Badge, Modal, ScrollArea, Table, Text } from '@mantine/core';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { roleTitle } from '#src/i18n/role-titles';
import { useSession } from '#src/lib/session/session-context';

/** The 'User permissions' modal of product §2: every permission, marked when the current role holds it. */
export function PermissionsModal({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation('account-widget');
  const { user } = useSession();
  const held = new Set(user.permissions);
  const grantedCount = PERMISSIONS.filter((p) => held.has(p)).length;
  return (
    <Modal opened={opened} onClose={onClose} title={t('permissions.title')} size="lg">
      <Text size="sm" mb="sm" data-testid="permissions-summary">
        {t('permissions.summary', {
          role: roleTitle(user.role_title),
          granted: grantedCount,
          total: PERMISSIONS.length,
        })}
      </Text>
      <ScrollArea.Autosize mah="60vh">
        <Table striped highlightOnHover data-testid="permissions-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('permissions.permission')}</Table.Th>
              <Table.Th w={140}>{t('permissions.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {PERMISSIONS.map((permission) => {
              const granted = held.has(permission);
              return (
                <Table.Tr key={permission} data-permission={permission} data-granted={granted || undefined}>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {permission}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    {granted ? (
                      <Badge color="green" variant="light" leftSection={<IconCheck size={12} />}>
                        {t('permissions.granted')}
                      </Badge>
                    ) : (
                      <Badge color="gray" variant="light" leftSection={<IconMinus size={12} />}>
                        {t('permissions.notGranted')}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
    </Modal>
  );
}
