import { editUserRoleBodySchema, type UserRow } from '@fleetgate/shared/schemas/users';
import { Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindow } from '#src/lib/dialogs/window-context';
import { formWindowId } from '#src/lib/forms/submit';
import type { FormDefinition } from '#src/lib/forms/types';
import { useSchemaForm } from '#src/lib/forms/use-schema-form';
import { useSession } from '#src/lib/session/session-context';
import { useRoleOptions, userKeys } from '../api/users';
import { FormShell } from '../components/FormShell';
import { OptionSelect } from '../components/OptionSelect';
import { roleOptions } from '../utils/roles';

export type EditUserRoleProps = {
  user: Pick<UserRow, 'id' | 'email' | 'company_id' | 'company_name' | 'role_id'>;
};

/** 'edit user role' (product §2 Dialog system): PUT /users/{id}/role with the company's role options. */
export function EditUserRoleDialog({ user: target }: EditUserRoleProps) {
  const { t } = useTranslation('users');
  const { user, can } = useSession();
  const window = useWindow();
  const definition = useMemo<FormDefinition>(
    () => ({
      name: 'editUserRole',
      ns: 'users',
      title: { create: 'editRole.title' },
      endpoint: `/users/${target.id}/role`,
      method: 'PUT',
      schema: editUserRoleBodySchema,
      fields: [{ key: 'role_id', label: 'field.role', type: 'select', required: true }],
      defaults: { role_id: String(target.role_id) },
      permission: 'manage_users',
      invalidate: [userKeys.all],
      result: { item: 'result.user', created: 'result.updated' },
    }),
    [target.id, target.role_id],
  );
  const { form, status, formErrors, submit } = useSchemaForm(definition, {
    id: String(target.id),
    formId: window?.id ?? formWindowId('editUserRole', String(target.id)),
    can,
    onSuccess: () => window?.close(),
  });
  const roles = useRoleOptions(target.company_id);
  const options = useMemo(() => {
    const offered = roleOptions(roles.data ?? [], user.role.name, target.company_id);
    // The current role stays visible even when the caller could not give it.
    const current = roles.data?.find((r) => r.id === target.role_id);
    if (current && !offered.some((o) => o.value === String(current.id)))
      offered.unshift({ value: String(current.id), label: current.title });
    return offered;
  }, [roles.data, user.role.name, target.company_id, target.role_id]);

  return (
    <FormShell
      name="editUserRole"
      status={status}
      errors={formErrors}
      onSubmit={(event) => void submit(event)}
      onCancel={() => window?.close()}
    >
      <Stack gap={2}>
        <Text size="sm" fw={600} data-testid="edit-role-user">
          {target.email}
        </Text>
        <Text size="xs" c="dimmed">
          {target.company_name} #{target.company_id}
        </Text>
      </Stack>
      <OptionSelect
        form={form}
        name="role_id"
        label={t('field.role')}
        data={options}
        loading={roles.isFetching}
        autoFocus
      />
    </FormShell>
  );
}
