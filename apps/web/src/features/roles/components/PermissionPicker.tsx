import { Checkbox, Fieldset, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { groupedPermissions, isGrantable } from '../permission-groups';

type Props = {
  value: readonly string[];
  onChange(next: string[]): void;
  /** The current user's permissions: only these are selectable. */
  held: readonly string[];
  error?: string | undefined;
};

/**
 * The permission editor of a custom role: the catalogue in sections, each with a
 * checkbox that takes or drops the whole section. A permission the current user does
 * not hold is shown but cannot be ticked (the server refuses it anyway).
 */
export function PermissionPicker({ value, onChange, held, error }: Props) {
  const { t } = useTranslation('roles');
  const chosen = new Set(value);
  const set = (permission: string, on: boolean) => {
    const next = new Set(chosen);
    if (on) next.add(permission);
    else next.delete(permission);
    onChange([...next]);
  };
  return (
    <Stack gap="sm" data-testid="permission-picker">
      <Text size="sm" c="dimmed">
        {t('editor.permissionsHint', { count: value.length })}
      </Text>
      {error && (
        <Text size="sm" c="red" role="alert" data-testid="permissions-error">
          {error}
        </Text>
      )}
      {groupedPermissions().map(({ group, permissions }) => {
        const grantable = permissions.filter((p) => isGrantable(held, p));
        const ticked = grantable.filter((p) => chosen.has(p));
        return (
          <Fieldset
            key={group}
            legend={
              <Checkbox
                label={t(`group.${group}`)}
                checked={grantable.length > 0 && ticked.length === grantable.length}
                indeterminate={ticked.length > 0 && ticked.length < grantable.length}
                disabled={grantable.length === 0}
                onChange={(event) => {
                  const on = event.currentTarget.checked;
                  const next = new Set(chosen);
                  for (const p of grantable) {
                    if (on) next.add(p);
                    else next.delete(p);
                  }
                  onChange([...next]);
                }}
                fw={600}
                data-testid={`group-${group}`}
              />
            }
            p="sm"
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing={6} verticalSpacing={6}>
              {permissions.map((permission) => {
                const allowed = isGrantable(held, permission);
                const box = (
                  <Checkbox
                    key={permission}
                    label={t(`permission.${permission}`, { defaultValue: permission })}
                    description={permission}
                    checked={chosen.has(permission)}
                    disabled={!allowed}
                    onChange={(event) => set(permission, event.currentTarget.checked)}
                    data-permission={permission}
                  />
                );
                return allowed ? (
                  box
                ) : (
                  <Tooltip key={permission} label={t('editor.notHeld')} position="top-start">
                    <div>{box}</div>
                  </Tooltip>
                );
              })}
            </SimpleGrid>
          </Fieldset>
        );
      })}
    </Stack>
  );
}
