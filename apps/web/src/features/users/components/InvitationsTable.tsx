import {
  INVITATION_STATUSES,
  type Invitation,
  type InvitationStatus,
} from '@fleetgate/shared/schemas/invitations';
import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconBuildingPlus, IconMailForward, IconUserPlus, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { ListSearch } from '#src/components/table/ListSearch';
import { type Column, PagedTable, pageQueryProps } from '#src/components/table/PagedTable';
import { RowAction } from '#src/components/table/RowAction';
import { useListState } from '#src/components/table/use-list-state';
import { roleTitle } from '#src/i18n/role-titles';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { invitationActions, invitationKeys, useInvitations } from '../api/users';
import { openInviteUser } from '../dialogs';
import { inviteNewCompanyForm } from '../forms/user-forms';

const PAGE_SIZE = 25;
const STATUS_COLORS: Record<InvitationStatus, string> = {
  pending: 'blue',
  accepted: 'green',
  expired: 'gray',
  revoked: 'red',
};

/** users.invitations (product §2): every invitation in reach with its status; resend and revoke. */
export function InvitationsTable({ company }: { company?: { id: number; name: string } }) {
  const { t } = useTranslation('invitations');
  const { can } = useSession();
  const windows = useWindows();
  const list = useListState({ defaultSort: '-created_at', pageSize: PAGE_SIZE });
  const [status, setStatus] = useState<InvitationStatus | null>(null);
  const invitations = useInvitations({
    q: list.q,
    sort: list.sort,
    limit: list.limit,
    offset: list.offset,
    company_id: company?.id,
    status: status ?? undefined,
  });
  const manage = can('manage_users');

  const resend = useAction({
    call: (row: Invitation) => invitationActions.resend(row.id),
    failure: { verb: 'resend', item: 'invitation' },
    invalidate: [invitationKeys.all],
    success: t('result.resend'),
  });
  const revokeAction = useAction({
    call: (row: Invitation) => invitationActions.revoke(row.id),
    failure: { verb: 'revoke', item: 'invitation' },
    invalidate: [invitationKeys.all],
    success: t('result.revoke'),
  });

  async function revoke(row: Invitation) {
    const yes = await windows.confirm({
      title: t('revoke.title'),
      message: t('revoke.message', { email: row.email }),
      confirmLabel: t('revoke.confirm'),
      danger: true,
      id: `invitation-revoke:${row.id}`,
    });
    if (yes) await revokeAction.run(row);
  }

  const open = (row: Invitation) => row.status === 'pending' || row.status === 'expired';
  const columns: Column<Invitation>[] = [
    {
      key: 'email',
      header: t('column.email'),
      sortKey: 'email',
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm" fw={500} data-testid="invitation-email">
            {row.email}
          </Text>
          {row.kind === 'distributor' && (
            <Text size="xs" c="dimmed">
              {t('kind.distributor')}
            </Text>
          )}
        </Stack>
      ),
    },
    ...(company
      ? []
      : [
          {
            key: 'company',
            header: t('column.company'),
            render: (row: Invitation) => <Text size="sm">{row.company_name}</Text>,
          },
        ]),
    {
      key: 'role',
      header: t('column.role'),
      render: (row) => <Text size="sm">{row.role_title ? roleTitle(row.role_title) : '-'}</Text>,
    },
    {
      key: 'status',
      header: t('column.status'),
      width: 120,
      render: (row) => (
        <Badge color={STATUS_COLORS[row.status]} variant="light" data-testid="invitation-status">
          {t(`status.${row.status}`)}
        </Badge>
      ),
    },
    {
      key: 'invited_by',
      header: t('column.invitedBy'),
      render: (row) => <Text size="sm">{row.invited_by ?? '-'}</Text>,
    },
    {
      key: 'sent',
      header: t('column.sent'),
      sortKey: 'last_sent_at',
      render: (row) => (
        <Stack gap={0}>
          <Text size="sm">{formatTime(row.last_sent_at)}</Text>
          {row.send_count > 1 && (
            <Text size="xs" c="dimmed">
              {t('column.sendCount', { count: row.send_count })}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'expires',
      header: t('column.expires'),
      sortKey: 'expires_at',
      render: (row) => (
        <Text size="sm">
          {row.status === 'accepted' ? formatTime(row.accepted_at) : formatTime(row.expires_at)}
        </Text>
      ),
    },
    ...(manage
      ? [
          {
            key: 'actions',
            header: t('column.actions'),
            width: 100,
            render: (row: Invitation) =>
              open(row) ? (
                <Group gap={4} wrap="nowrap">
                  <RowAction label={t('action.resend')} onClick={() => void resend.run(row)}>
                    <IconMailForward size={16} />
                  </RowAction>
                  <RowAction label={t('action.revoke')} color="red" onClick={() => void revoke(row)}>
                    <IconX size={16} />
                  </RowAction>
                </Group>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Group gap="xs">
          <ListSearch list={list} label={t('search.label')} placeholder={t('search.placeholder')} w={280} />
          <Select
            aria-label={t('filter.status')}
            placeholder={t('filter.all')}
            data={INVITATION_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
            value={status}
            onChange={(value) => {
              setStatus(value as InvitationStatus | null);
              list.setPage(1);
            }}
            clearable
            w={170}
            data-testid="invitations-status-filter"
          />
        </Group>
        <Group gap="xs">
          {!company && can('manage_companies') && (
            <Button
              variant="default"
              leftSection={<IconBuildingPlus size={16} />}
              onClick={() => void openForm(inviteNewCompanyForm)}
            >
              {t('action.inviteDistributor')}
            </Button>
          )}
          {manage && (
            <Button leftSection={<IconUserPlus size={16} />} onClick={() => openInviteUser(company)}>
              {t('action.invite')}
            </Button>
          )}
        </Group>
      </Group>
      <PagedTable
        columns={columns}
        {...pageQueryProps(invitations, 'invitations')}
        list={list}
        label={t('table.label')}
        empty={t('table.empty')}
        testId="invitations-table"
        minWidth={1000}
      />
    </Stack>
  );
}
