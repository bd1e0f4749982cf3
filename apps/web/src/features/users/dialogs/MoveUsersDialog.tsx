import { moveUsersBodySchema } from '@fleetgate/shared/schemas/users';
import { List, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWindow } from '#src/lib/dialogs/window-context';
import { formWindowId } from '#src/lib/forms/submit';
import type { FormDefinition } from '#src/lib/forms/types';
import { useSchemaForm } from '#src/lib/forms/use-schema-form';
import { useSession } from '#src/lib/session/session-context';
import { userKeys } from '../api/users';
import { CompanySelect } from '../components/CompanySelect';
import { FormShell } from '../components/FormShell';

export type MoveUsersProps = {
  users: readonly { id: number; email: string }[];
  /** Called after the users moved (the table clears its selection). */
  onMoved?(): void;
};

/** 'move users' (product §2 Dialog system, §7 /users/move): the chosen users into another company. */
export function MoveUsersDialog({ users, onMoved }: MoveUsersProps) {
  const { t } = useTranslation('users');
  const { can } = useSession();
  const window = useWindow();
  // The chosen users are fixed when the dialog opens.
  const [definition] = useState<FormDefinition>(() => ({
    name: 'moveUsers',
    ns: 'users',
    title: { create: 'move.title' },
    endpoint: '/users/move',
    schema: moveUsersBodySchema,
    fields: [{ key: 'company_id', label: 'move.target', type: 'select', required: true }],
    // user_ids is no field: it travels with the values and is checked by the same schema.
    defaults: { user_ids: users.map((u) => u.id), company_id: undefined },
    permission: 'manage_users',
    invalidate: [userKeys.all],
    result: { item: 'result.users', created: 'result.moved' },
    submitLabel: 'move.submit',
  }));
  const { form, status, formErrors, submit } = useSchemaForm(definition, {
    id: undefined,
    formId: window?.id ?? formWindowId('moveUsers', undefined),
    can,
    onSuccess: () => {
      onMoved?.();
      window?.close();
    },
  });
  return (
    <FormShell
      name="moveUsers"
      status={status}
      errors={formErrors}
      onSubmit={(event) => void submit(event)}
      onCancel={() => window?.close()}
      submitLabel={t('move.submit')}
    >
      <Text size="sm">{t('move.intro', { count: users.length })}</Text>
      <List size="sm" data-testid="move-users-list" mah={160} style={{ overflow: 'auto' }}>
        {users.map((u) => (
          <List.Item key={u.id}>{u.email}</List.Item>
        ))}
      </List>
      <CompanySelect form={form} name="company_id" label={t('move.target')} autoFocus />
    </FormShell>
  );
}
