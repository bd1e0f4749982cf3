import type { Json } from '@fleetgate/shared/schemas/api';
import type { PortForward } from '@fleetgate/shared/schemas/remote';
import {
  ActionIcon,
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCircleCheck, IconCopy, IconPlugConnected, IconX } from '@tabler/icons-react';
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

export type PortForwardJson = Json<PortForward>;

/** What a client runs to use a forward: OpenSSH for SSH and SFTP, any TCP client otherwise. */
export function clientCommands(forward: Pick<PortForwardJson, 'protocol' | 'host' | 'port'>): string[] {
  const { host, port } = forward;
  if (forward.protocol === 'ssh' || forward.protocol === 'sftp')
    return [`ssh -p ${port} admin@${host}`, `sftp -P ${port} admin@${host}`];
  if (forward.protocol === 'http' || forward.protocol === 'https')
    return [`${forward.protocol}://${host}:${port}/`];
  return [`${host}:${port}`];
}

/** A command or address to copy, with its copy button. */
export function Copyable({ text, testId = 'forward-command' }: { text: string; testId?: string }) {
  const { t } = useTranslation('remote');
  return (
    <Group gap={4} wrap="nowrap" miw={0}>
      <Code
        style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
        data-testid={testId}
      >
        {text}
      </Code>
      <CopyButton value={text}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('forward.copied') : t('forward.copy')}>
            <ActionIcon variant="subtle" onClick={copy} aria-label={t('forward.copy')}>
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** The port forward form (POST /remote/forwards); after saving, where to connect in place of the form. */
export function PortForwardFormBody({ definition, id, formId, onSuccess, onCancel }: FormBodyProps) {
  const { t } = useTranslation('remote');
  const [opened, setOpened] = useState<Envelope<PortForwardJson> | null>(null);
  if (opened) {
    const forward = opened.data;
    return (
      <Stack data-testid="forward-opened">
        <Alert color="green" icon={<IconCircleCheck size={18} />} title={t('forward.openedTitle')}>
          {t('forward.openedText', {
            host: forward.host,
            port: forward.port,
            until: formatTime(forward.expires_at),
          })}
        </Alert>
        {clientCommands(forward).map((command) => (
          <Copyable key={command} text={command} />
        ))}
        <Group justify="flex-end">
          <Button onClick={() => onSuccess?.(opened)} data-autofocus>
            {t('forward.done')}
          </Button>
        </Group>
      </Stack>
    );
  }
  const { body: _ownBody, ...fields } = definition;
  return (
    <SchemaForm
      definition={fields}
      id={id}
      formId={formId}
      onSuccess={(response) => setOpened(response as Envelope<PortForwardJson>)}
      {...(onCancel ? { onCancel } : {})}
    />
  );
}

/** Opens the port forward form for a device's own SSH or for a remote entry. */
export async function openPortForward(target: { device_id: number } | { entry_id: number }) {
  const { portForwardForm } = await import('../forms/remote-forms');
  await openForm(portForwardForm(target));
}

/**
 * The open port forwards of a device (GET /remote/forwards): where each listens, what it
 * reaches, until when and how many clients use it; closing one ends its connections.
 */
export function PortForwards({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('remote');
  const { can } = useSession();
  const forwards = useQuery({
    queryKey: [...remoteKeys.all, 'forwards', deviceId],
    queryFn: async () =>
      (await api.get<PortForwardJson[]>('/remote/forwards', { query: { device_id: deviceId } })).data,
    refetchInterval: 15_000,
  });
  const closing = useAction({
    call: (forward: PortForwardJson) => api.delete<{ id: string }>(`/remote/forwards/${forward.id}`),
    failure: { verb: 'close', item: 'port forward' },
    invalidate: [remoteKeys.all],
    success: t('forward.closed'),
    ownWords: true,
  });
  const rows = forwards.data ?? [];
  return (
    <Panel
      title={t('forward.heading')}
      text={t('forward.text')}
      testId="port-forwards"
      action={
        can('manage_devices') && (
          <Button
            variant="default"
            leftSection={<IconPlugConnected size={16} />}
            onClick={() => void openPortForward({ device_id: deviceId })}
            data-testid="forward-open"
          >
            {t('forward.title')}
          </Button>
        )
      }
    >
      {forwards.isError ? (
        <Alert color="red">{failureMessage(forwards.error, 'get', 'port forwards')}</Alert>
      ) : rows.length === 0 ? (
        <Text size="sm" data-testid="forwards-empty">
          {t('forward.none')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label={t('forward.heading')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('forward.listen')}</Table.Th>
                <Table.Th>{t('column.what')}</Table.Th>
                <Table.Th>{t('forward.until')}</Table.Th>
                <Table.Th>{t('forward.clients')}</Table.Th>
                {can('manage_devices') && <Table.Th w={70}>{t('column.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((forward) => (
                <Table.Tr key={forward.id} data-testid="forward-row">
                  <Table.Td>
                    <Code>{`${forward.host}:${forward.port}`}</Code>
                  </Table.Td>
                  <Table.Td>
                    {t(`protocol.${forward.protocol}`)}
                    {forward.entry_name ? ` · ${forward.entry_name}` : ''} ({forward.target_host}:
                    {forward.target_port})
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(forward.expires_at)}</Table.Td>
                  <Table.Td>{forward.connections}</Table.Td>
                  {can('manage_devices') && (
                    <Table.Td>
                      <RowAction
                        label={t('forward.close')}
                        color="red"
                        onClick={() => void closing.run(forward)}
                        testId="forward-close"
                      >
                        <IconX size={16} />
                      </RowAction>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Panel>
  );
}
