import { roleBodySchema, roleUpdateBodySchema } from '@fleetgate/shared/schemas/roles';
import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { companyKeys, fetchCompanyOptions } from '#src/features/companies/api/companies';
import { useWindow } from '#src/lib/dialogs/window-context';
import { ENGLISH_ERROR_TEXTS, mapSubmitError } from '#src/lib/forms/errors';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import { type RoleWithPermissions, roleActions, roleKeys, useRole } from '../api/roles';
import { PermissionPicker } from './PermissionPicker';

type Values = {
  company_id: string | null;
  name: string;
  title: string;
  description: string;
  permissions: string[];
};
type Errors = Partial<Record<keyof Values, string>>;

const FIELDS = ['company_id', 'name', 'title', 'description', 'permissions'] as const;

function fromRole(role: RoleWithPermissions): Values {
  return {
    company_id: role.company_id === null ? null : String(role.company_id),
    name: role.name,
    title: role.title,
    description: role.description,
    permissions: role.permissions,
  };
}

/** The 'new role' dialog (product §2), also used to change a custom role: `roleId` given. */
export function RoleEditor({ roleId }: { roleId?: number }) {
  const role = useRole(roleId);
  const { t } = useTranslation('roles');
  if (roleId !== undefined && role.isPending)
    return (
      <Center py="lg">
        <Loader />
      </Center>
    );
  if (roleId !== undefined && !role.data)
    return (
      <Alert color="red" role="alert">
        {role.error instanceof Error ? role.error.message : t('editor.loadFailed')}
      </Alert>
    );
  return <RoleForm role={role.data} />;
}

function RoleForm({ role }: { role: RoleWithPermissions | undefined }) {
  const { t } = useTranslation('roles');
  const { user, can } = useSession();
  const window = useWindow();
  const editing = role !== undefined;
  const chooseCompany = !editing && can('view_companies');
  const companies = useQuery({
    queryKey: companyKeys.options('all'),
    queryFn: () => fetchCompanyOptions(),
    enabled: chooseCompany,
  });
  const [values, setValues] = useState<Values>(
    role
      ? fromRole(role)
      : { company_id: String(user.company_id), name: '', title: '', description: '', permissions: [] },
  );
  const [errors, setErrors] = useState<Errors>({});
  const [formErrors, setFormErrors] = useState<string[]>([]);
  const save = useAction({
    call: (body: Parameters<typeof roleActions.create>[0]) =>
      role ? roleActions.update(role.id, body) : roleActions.create(body),
    failure: { verb: role ? 'update' : 'create', item: 'role' },
    invalidate: [roleKeys.all],
    success: t('editor.saved'),
    onSuccess: () => window?.close(),
    onFailure: (_message, error) => {
      const mapped = mapSubmitError(error, { fieldKeys: FIELDS }, ENGLISH_ERROR_TEXTS);
      if (mapped) {
        setErrors(mapped.fields as Errors);
        setFormErrors(mapped.form);
      }
    },
  });

  // product §5: a field error clears when the value changes.
  const change = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (save.pending) return;
    const body = {
      ...(editing ? {} : { company_id: values.company_id ?? '' }),
      name: values.name,
      title: values.title,
      description: values.description,
      permissions: values.permissions,
    };
    const parsed = (editing ? roleUpdateBodySchema : roleBodySchema).safeParse(body);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '') as keyof Values;
        if (FIELDS.includes(key) && !found[key]) found[key] = issue.message;
      }
      setErrors(found);
      return;
    }
    setFormErrors([]);
    await save.run(parsed.data as Parameters<typeof roleActions.create>[0]);
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="role-editor">
      <Stack>
        {formErrors.length > 0 && (
          <Alert color="red" role="alert" data-testid="role-editor-errors">
            {formErrors.map((message) => (
              <Text key={message} size="sm">
                {message}
              </Text>
            ))}
          </Alert>
        )}
        {chooseCompany ? (
          <Select
            label={t('field.company')}
            required
            data={companies.data ?? []}
            value={values.company_id}
            onChange={(value) => change('company_id', value)}
            searchable
            error={errors.company_id}
            comboboxProps={{ withinPortal: true }}
          />
        ) : (
          <Text size="sm">
            {t('field.company')}: <b>{role?.company_name ?? user.company_name}</b>
          </Text>
        )}
        <Group grow align="flex-start">
          <TextInput
            label={t('field.title')}
            required
            value={values.title}
            onChange={(e) => change('title', e.currentTarget.value)}
            error={errors.title}
            data-testid="role-title-input"
            data-autofocus
          />
          <TextInput
            label={t('field.name')}
            description={t('field.nameHint')}
            required
            value={values.name}
            onChange={(e) => change('name', e.currentTarget.value)}
            error={errors.name}
            data-testid="role-name-input"
          />
        </Group>
        <Textarea
          label={t('field.description')}
          value={values.description}
          onChange={(e) => change('description', e.currentTarget.value)}
          error={errors.description}
          autosize
          minRows={2}
        />
        <PermissionPicker
          value={values.permissions}
          onChange={(next) => change('permissions', next)}
          held={user.permissions}
          error={errors.permissions}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={() => window?.close()}>
            {t('editor.cancel')}
          </Button>
          <Button type="submit" loading={save.pending}>
            {t('editor.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
