import type { Json } from '@fleetgate/shared/schemas/api';
import type { ShareLink } from '@fleetgate/shared/schemas/remote';
import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconCircleCheck, IconShare, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { SchemaForm } from '#src/components/forms/SchemaForm';
import { Panel } from '#src/components/page/Panel';
import { RowAction } from '#src/components/table/RowAction';
import type { FormBodyProps } from '#src/lib/forms/types';
import { api, type Envelope } from '#src/lib/http/client';
import { failureMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import { useSession } from '#src/lib/session/session-context';
import { formatTime } from '#src/lib/time';
import { remoteKeys } from '../api/remote';
import { Copyable } from './PortForwards';

type ShareLinkJson = Json<ShareLink>;

/** A link's state as its holder would find it. */
function stateOf(link: ShareLinkJson): 'active' | 'expired' | 'revoked' {
  if (link.revoked_at) return 'revoked';
  return new Date(link.expires_at).getTime() <= Date.now() ? 'expired' : 'active';
}
const STATE_COLOURS = { active: 'green', expired: 'gray', revoked: 'red' } as const;

/** The share link form; after saving, the link itself in place of the form, shown this once. */
export function ShareLinkFormBody({ definition, id, formId, onSuccess, onCancel }: FormBodyProps) {
  const { t } = useTranslation('remote');
  const [made, setMade] = useState<Envelope<ShareLinkJson & { url: string }> | null>(null);
  if (made)
    return (
      <Stack data-testid="share-made">
        <Alert color="green" icon={<IconCircleCheck size={18} />} title={t('share.madeTitle')}>
          {t('share.madeText', { until: formatTime(made.data.expires_at) })}
        </Alert>
        <Copyable text={made.data.url} testId="share-url" />
        <Group justify="flex-end">
          <Button onClick={() => onSuccess?.(made)} data-autofocus>
            {t('forward.done')}
          </Button>
        </Group>
      </Stack>
    );
  const { body: _ownBody, ...fields } = definition;
  return (
    <SchemaForm
      definition={fields}
      id={id}
      formId={formId}
      onSuccess={(response) => setMade(response as Envelope<ShareLinkJson & { url: string }>)}
      {...(onCancel ? { onCancel } : {})}
    />
  );
}

/**
 * An SSH or VNC entry's share links (product §2: the ssh and desktop launchers with a key skip
 * sign-in): who made each, until when, how often it was used; revoking one ends its sessions.
 */
export function ShareLinks({ entryId, enabled }: { entryId: number; enabled: boolean }) {
  const { t } = useTranslation('remote');
  const { can } = useSession();
  const manage = can('manage_devices');
  const links = useQuery({
    queryKey: [...remoteKeys.all, 'share-links', entryId],
    queryFn: async () =>
      (await api.get<ShareLinkJson[]>('/remote/share-links', { query: { entry_id: entryId } })).data,
  });
  const revoking = useAction({
    call: (link: ShareLinkJson) => api.delete<{ id: string }>(`/remote/share-links/${link.id}`),
    failure: { verb: 'revoke', item: 'share link' },
    invalidate: [remoteKeys.all],
    success: t('share.revokedDone'),
    ownWords: true,
  });
  const rows = links.data ?? [];
  return (
    <Panel
      title={t('share.heading')}
      text={t('share.text')}
      testId="share-links"
      action={
        manage && (
          <Button
            variant="default"
            leftSection={<IconShare size={16} />}
            disabled={!enabled}
            onClick={() =>
              void import('../forms/remote-forms').then(({ shareLinkForm }) =>
                openForm(shareLinkForm(entryId)),
              )
            }
            data-testid="share-open"
          >
            {t('share.title')}
          </Button>
        )
      }
    >
      {links.isError ? (
        <Alert color="red">{failureMessage(links.error, 'get', 'share links')}</Alert>
      ) : rows.length === 0 ? (
        <Text size="sm" data-testid="share-empty">
          {t('share.none')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('share.heading')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('share.createdBy')}</Table.Th>
                <Table.Th>{t('share.until')}</Table.Th>
                <Table.Th>{t('share.uses')}</Table.Th>
                <Table.Th>{t('share.state')}</Table.Th>
                {manage && <Table.Th w={70}>{t('column.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((link) => {
                const state = stateOf(link);
                return (
                  <Table.Tr key={link.id} data-testid="share-row" data-state={state}>
                    <Table.Td>{link.created_by_email ?? '—'}</Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(link.expires_at)}</Table.Td>
                    <Table.Td>{link.uses}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATE_COLOURS[state]} tt="none">
                        {t(`share.${state}`)}
                      </Badge>
                    </Table.Td>
                    {manage && (
                      <Table.Td>
                        {state === 'active' && (
                          <RowAction
                            label={t('share.revoke')}
                            color="red"
                            onClick={() => void revoking.run(link)}
                            testId="share-revoke"
                          >
                            <IconX size={16} />
                          </RowAction>
                        )}
                      </Table.Td>
                    )}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Panel>
  );
}
