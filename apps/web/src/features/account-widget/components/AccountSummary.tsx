import { Anchor, Avatar, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { roleTitle, shownRoleTitle } from '#src/i18n/role-titles';
import { useSession } from '#src/lib/session/session-context';

type Props = {
  /** Opens the 'User permissions' modal (only offered with view_permissions). */
  onShowPermissions(): void;
  /** Closes the menu when a link in the summary is followed. */
  onNavigate(): void;
};

/** Avatar, e-mail, company and role of product §2 Header widgets 3. */
export function AccountSummary({ onShowPermissions, onNavigate }: Props) {
  const { t } = useTranslation('account-widget');
  const { user, can } = useSession();
  const company = `#${user.company_id} ${user.company_name}`;
  const fullRole = roleTitle(user.role_title);
  const role = shownRoleTitle(user.role_title);
  const roleCut = role !== fullRole;
  return (
    <Group gap="sm" px="sm" py="xs" wrap="nowrap" align="flex-start">
      <Avatar src={user.avatar_url} size={26} radius="xl" name={user.email} color="initials" />
      <Stack gap={2} miw={0}>
        <Text size="sm" fw={600} truncate="end" title={user.email} data-testid="account-email">
          {user.email}
        </Text>
        {/* product §6: the company link needs view_companies. */}
        {can('view_companies') ? (
          <Anchor
            component={Link}
            to={`/companies/${user.company_id}`}
            size="xs"
            onClick={onNavigate}
            data-testid="account-company"
            aria-label={t('company.open', { name: user.company_name })}
          >
            {company}
          </Anchor>
        ) : (
          <Text size="xs" c="dimmed" data-testid="account-company">
            {company}
          </Text>
        )}
        <Tooltip label={fullRole} disabled={!roleCut} withinPortal>
          {can('view_permissions') ? (
            <UnstyledButton
              onClick={onShowPermissions}
              data-testid="account-role"
              aria-label={t('role.showPermissions', { role: fullRole })}
            >
              <Text size="xs" c="blue" td="underline">
                {role}
              </Text>
            </UnstyledButton>
          ) : (
            <Text size="xs" c="dimmed" data-testid="account-role">
              {role}
            </Text>
          )}
        </Tooltip>
      </Stack>
    </Group>
  );
}
