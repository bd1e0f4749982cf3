import { EMAIL_MAX } from '@fleetgate/shared/limits';
import { inviteUserBodySchema } from '@fleetgate/shared/schemas/invitations';
import { Text, TextInput } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useWindow } from '#src/lib/dialogs/window-context';
import { formWindowId } from '#src/lib/forms/submit';
import type { FormBodyProps, FormDefinition } from '#src/lib/forms/types';
import { useSchemaForm } from '#src/lib/forms/use-schema-form';
import { useSession } from '#src/lib/session/session-context';
import { invitationKeys, useRoleOptions } from '../api/users';
import { CompanySelect } from '../components/CompanySelect';
import { FormShell } from '../components/FormShell';
import { OptionSelect } from '../components/OptionSelect';
import { roleOptions } from '../utils/roles';

/**
 * newUser (product §3: POST /users/invite with company_id, email, role). Role options are
 * loaded per company: the default roles plus the company's custom roles, titles cut to
 * 45 characters; changing the company clears the role and reloads its options. Its body is
 * its own (the options load per company), so it opens in a window and on /forms/newUser alike.
 */
export const newUserForm: FormDefinition = {
  name: 'newUser',
  ns: 'users',
  title: { create: 'invite.title' },
  endpoint: '/users/invite',
  schema: inviteUserBodySchema,
  fields: [
    { key: 'company_id', label: 'field.company', type: 'select', required: true },
    { key: 'email', label: 'field.email', type: 'email', required: true, maxlength: EMAIL_MAX },
    { key: 'role', label: 'field.role', type: 'select', required: true },
  ],
  permission: 'manage_users',
  invalidate: [invitationKeys.all],
  result: { item: 'result.invitation', created: 'result.sent' },
  submitLabel: 'invite.submit',
  fallbackPath: '/users/invitations',
  body: (props) => <InviteUserForm {...props} />,
};

export type InviteUserProps = { company?: { id: number; name: string } };

/** 'Invite user' in a window; from a company's page the company is preset. */
export function InviteUserDialog({ company }: InviteUserProps) {
  const window = useWindow();
  return (
    <InviteUserForm
      definition={newUserForm}
      id={undefined}
      formId={window?.id ?? formWindowId(newUserForm.name, undefined)}
      onSuccess={() => window?.close()}
      onCancel={() => window?.close()}
      {...(company ? { company } : {})}
    />
  );
}

function InviteUserForm({
  definition: base,
  formId,
  onSuccess,
  onCancel,
  company,
}: FormBodyProps & InviteUserProps) {
  const { t } = useTranslation('users');
  const { user, can } = useSession();
  const definition = useMemo(
    () => ({
      ...base,
      defaults: { company_id: company ? String(company.id) : undefined, email: '', role: undefined },
    }),
    [base, company],
  );
  const { form, values, status, formErrors, submit } = useSchemaForm(definition, {
    id: undefined,
    formId,
    can,
    ...(onSuccess ? { onSuccess } : {}),
  });
  const companyId = values.company_id ? Number(values.company_id) : null;
  const roles = useRoleOptions(companyId);
  const options = useMemo(
    () => (companyId === null ? [] : roleOptions(roles.data ?? [], user.role.name, companyId)),
    [roles.data, user.role.name, companyId],
  );

  // product §3 newUser: a company change clears the role (its options reload with the company).
  const previous = useRef(companyId);
  useEffect(() => {
    if (previous.current === companyId) return;
    previous.current = companyId;
    form.setValue('role', undefined);
    form.clearErrors('role');
  }, [companyId, form]);

  return (
    <FormShell
      name={newUserForm.name}
      status={status}
      errors={formErrors}
      onSubmit={(event) => void submit(event)}
      {...(onCancel ? { onCancel } : {})}
      submitLabel={t('invite.submit')}
    >
      <CompanySelect
        form={form}
        name="company_id"
        label={t('field.company')}
        known={company ? [company] : []}
        autoFocus
      />
      <Controller
        control={form.control}
        name="email"
        render={({ field, fieldState }) => (
          <TextInput
            label={t('field.email')}
            name="email"
            type="email"
            required
            maxLength={EMAIL_MAX}
            value={(field.value as string | undefined) ?? ''}
            onChange={(e) => {
              field.onChange(e.currentTarget.value);
              if (fieldState.error) form.clearErrors('email');
            }}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
          />
        )}
      />
      <OptionSelect
        form={form}
        name="role"
        label={t('field.role')}
        data={options}
        disabled={companyId === null}
        loading={roles.isFetching}
        placeholder={companyId === null ? t('field.roleNeedsCompany') : t('field.rolePlaceholder')}
      />
      <Text size="xs" c="dimmed">
        {t('invite.hint')}
      </Text>
    </FormShell>
  );
}
