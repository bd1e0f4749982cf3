import { Alert, Center, List, Loader, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useRole } from '../api/roles';
import { groupedPermissions } from '../permission-groups';

/** 'Role permissions' (product §2 dialog): what a role may do, in the editor's sections. */
export function RolePermissionsDialog({ roleId }: { roleId: number }) {
  const { t } = useTranslation('roles');
  const role = useRole(roleId);
  if (role.isPending)
    return (
      <Center py="lg">
        <Loader />
      </Center>
    );
  if (!role.data)
    return (
      <Alert color="red" role="alert">
        {role.error instanceof Error ? role.error.message : t('editor.loadFailed')}
      </Alert>
    );
  const sections = groupedPermissions(role.data.permissions);
  return (
    <Stack gap="sm" data-testid="role-permissions">
      <Text size="sm" c="dimmed">
        {t('permissionsDialog.summary', { title: role.data.title, count: role.data.permissions.length })}
      </Text>
      {sections.length === 0 && <Text>{t('permissionsDialog.none')}</Text>}
      {sections.map(({ group, permissions }) => (
        <Stack key={group} gap={4}>
          <Title order={5}>{t(`group.${group}`)}</Title>
          <List size="sm" spacing={2}>
            {permissions.map((permission) => (
              <List.Item key={permission} data-permission={permission}>
                {t(`permission.${permission}`, { defaultValue: permission })}{' '}
                <Text span size="xs" c="dimmed">
                  ({permission})
                </Text>
              </List.Item>
            ))}
          </List>
        </Stack>
      ))}
    </Stack>
  );
}
