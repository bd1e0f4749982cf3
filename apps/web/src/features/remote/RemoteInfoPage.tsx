import { pathOf } from '@fleetgate/shared/routes';
import { SHAREABLE_PROTOCOLS } from '@fleetgate/shared/schemas/remote';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconFolder, IconPencil, IconPlugConnected, IconTerminal2, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openForm } from '#src/components/forms/open-form';
import { Fact } from '#src/components/page/Fact';
import { PageFrame } from '#src/components/page/PageFrame';
import { ApiError } from '#src/lib/http/errors';
import { failureMessage } from '#src/lib/http/results';
import { notifyFailure } from '#src/lib/http/toasts';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { openConnect, openWebPage, SCREEN_OF, useRemoteEntry } from './api/remote';
import { openPortForward } from './components/PortForwards';
import { SessionsTable } from './components/SessionsTable';
import { ShareLinks } from './components/ShareLinks';

/**
 * remote.info (product §2): one remote entry, what it reaches and through which device, the
 * ways to open it (console, port forward) and its sessions.
 */
export function RemoteInfoPage({ chain, params }: PageProps) {
  const { t } = useTranslation('remote');
  const { can } = useSession();
  const id = Number(params.id);
  const entry = useRemoteEntry(id);
  if (entry.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const e = entry.data;
  if (!e)
    return (
      <PageFrame chain={chain} params={params}>
        <Alert color="red" role="alert" data-testid="remote-entry-missing">
          {entry.error instanceof ApiError && entry.error.status === 404
            ? t('info.notFound')
            : failureMessage(entry.error, 'get', 'remote entry')}
        </Alert>
      </PageFrame>
    );
  const manage = can('manage_devices');
  const screen = SCREEN_OF[e.protocol];
  const actions = manage && (
    <Group gap="xs">
      {screen && (
        <Button
          leftSection={<IconTerminal2 size={16} />}
          disabled={!e.enabled}
          onClick={() => openConnect(screen, { entry_id: e.id })}
          data-testid="info-open"
        >
          {t(`open.${screen}`)}
        </Button>
      )}
      {e.protocol === 'ssh' && (
        <Button
          variant="default"
          leftSection={<IconFolder size={16} />}
          disabled={!e.enabled}
          onClick={() => openConnect('sftp', { entry_id: e.id })}
          data-testid="info-files"
        >
          {t('open.sftp')}
        </Button>
      )}
      {(e.protocol === 'http' || e.protocol === 'https') && (
        <Button
          leftSection={<IconWorld size={16} />}
          disabled={!e.enabled}
          onClick={() =>
            void openWebPage({ entry_id: e.id }).then((failed) => failed && notifyFailure(failed))
          }
          data-testid="info-open"
        >
          {t('open.web')}
        </Button>
      )}
      {e.protocol === 'rdp' && (
        <Text size="sm" c="dimmed" maw={360} data-testid="info-rdp">
          {t('rdp.why')}
        </Text>
      )}
      <Button
        variant="default"
        leftSection={<IconPlugConnected size={16} />}
        disabled={!e.enabled}
        onClick={() => void openPortForward({ entry_id: e.id })}
      >
        {t('forward.title')}
      </Button>
      <Button
        variant="default"
        leftSection={<IconPencil size={16} />}
        onClick={async () => {
          const { editRemoteForm } = await import('./forms/remote-forms');
          await openForm(editRemoteForm(e));
        }}
      >
        {t('edit.title')}
      </Button>
    </Group>
  );
  return (
    <PageFrame
      chain={chain}
      params={params}
      title={e.name}
      names={{ 'remote.info': e.name }}
      actions={actions}
    >
      <Stack gap="lg">
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
            <Fact label={t('column.device')}>
              <Anchor component={Link} to={pathOf('device.access', { id: e.device_id })}>
                {e.device_name}
              </Anchor>
            </Fact>
            <Fact label={t('column.protocol')} testId="info-protocol">
              {t(`protocol.${e.protocol}`)}
            </Fact>
            <Fact label={t('column.where')} testId="info-where">
              {e.host}:{e.port}
            </Fact>
            <Fact label={t('column.enabled')}>
              <Badge variant="light" color={e.enabled ? 'green' : 'gray'} tt="none">
                {e.enabled ? t('enabled.on') : t('enabled.off')}
              </Badge>
            </Fact>
          </SimpleGrid>
        </Paper>
        {(SHAREABLE_PROTOCOLS as readonly string[]).includes(e.protocol) && (
          <ShareLinks entryId={e.id} enabled={e.enabled} />
        )}
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('sessions.label')}
          </Title>
          <SessionsTable entryId={e.id} deviceId={e.device_id} />
        </Stack>
      </Stack>
    </PageFrame>
  );
}
