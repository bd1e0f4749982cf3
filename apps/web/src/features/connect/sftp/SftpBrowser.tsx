import { MAX_FILE_SIZE_BYTES } from '@fleetgate/shared/constants';
import type { CurrentUser } from '@fleetgate/shared/schemas/auth';
import type { SftpEntry, SftpSession } from '@fleetgate/shared/schemas/remote';
import {
  ActionIcon,
  Alert,
  Badge,
  Breadcrumbs,
  Button,
  Center,
  Code,
  FileButton,
  Group,
  Modal,
  Progress,
  ScrollArea,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import {
  IconCornerLeftUp,
  IconDownload,
  IconFile,
  IconFolder,
  IconFolderPlus,
  IconHome,
  IconLink,
  IconPencil,
  IconRefresh,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '#src/features/remote/utils/format';
import { api } from '#src/lib/http/client';
import { downloadFile } from '#src/lib/http/download';
import { readWithProgress } from '#src/lib/http/read-progress';
import { uploadFile } from '#src/lib/http/upload';
import { formatTime } from '#src/lib/time';
import { ConnectHeader } from '../ConnectHeader';
import { DeviceSignIn, type Ended } from '../DeviceSignIn';
import { targetOf } from '../terminal/target';
import type { TerminalTarget } from '../terminal/terminal-socket';
import { useTargetName } from '../use-target-name';

/** A file on its way, shown with its progress until it is done or failed. */
type Transfer = {
  id: number;
  name: string;
  kind: 'upload' | 'download';
  loaded: number;
  total?: number;
  error?: string;
  done?: boolean;
};

/** What a name dialog asks: a new folder, or a new name for an entry. */
type Asking = { kind: 'mkdir' } | { kind: 'rename'; entry: SftpEntry } | { kind: 'delete'; entry: SftpEntry };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const join = (folder: string, name: string) =>
  folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`;
const parentOf = (folder: string) => folder.replace(/\/[^/]+\/?$/, '') || '/';

/** The file browser screen of /rms-connect/sftp: the target the address names, or why there is none. */
export function SftpScreen({ user }: { user: CurrentUser | null }) {
  const { t } = useTranslation('connect');
  const target = targetOf(window.location.search);
  // A share link opens the console and the desktop only (product §2), never the files.
  if (!target || 'key' in target)
    return (
      <Center mih="100vh" p="md" data-testid="connect-sftp">
        <Alert color="gray" maw={480} data-testid="sftp-no-target">
          {t('sftp.noTarget')}
        </Alert>
      </Center>
    );
  return <SftpBrowser target={target} user={user} />;
}

/**
 * The file browser (product §2 /rms-connect/sftp): SFTP to the device through its tunnel,
 * signed in as a device user. Folders and files of the device, with upload and download
 * showing their progress (80 MB at most, product §5), rename, delete and new folder. The
 * device's own words explain what it refuses.
 */
export function SftpBrowser({ target, user }: { target: TerminalTarget; user: CurrentUser | null }) {
  const { t } = useTranslation('connect');
  const name = useTargetName(target);
  const [session, setSession] = useState<SftpSession>();
  const [ended, setEnded] = useState<Ended>();
  const [opening, setOpening] = useState(false);
  const [folder, setFolder] = useState('/');
  const [entries, setEntries] = useState<SftpEntry[]>();
  const [problem, setProblem] = useState<string>();
  const [transfers, setTransfers] = useState<Transfer[]>([]);
  const [asking, setAsking] = useState<Asking>();
  const transferCount = useRef(0);
  const base = session ? `/remote/sftp/${session.id}` : '';

  const load = useCallback(
    async (path: string) => {
      if (!base) return;
      try {
        const result = await api.get<SftpEntry[]>(`${base}/list`, { query: { path }, dedupe: false });
        setEntries(result.data);
        setFolder(path);
        setProblem(undefined);
      } catch (error) {
        // A browser the server no longer keeps (idle, ended by an admin) asks to sign in again.
        if ((error as { status?: number }).status === 404 && /File browser/.test(message(error))) {
          setSession(undefined);
          setEnded({ reason: t('sftp.expired'), error: true });
        } else setProblem(message(error));
      }
    },
    [base, t],
  );

  useEffect(() => {
    if (session) void load(session.home);
  }, [session, load]);

  async function open(login: { username: string; password: string }) {
    setOpening(true);
    setEnded(undefined);
    try {
      const opened = await api.post<SftpSession>('/remote/sftp', { ...target, ...login });
      setSession(opened.data);
    } catch (error) {
      setEnded({ reason: message(error), error: true });
    } finally {
      setOpening(false);
    }
  }

  async function disconnect() {
    if (session) await api.delete(`/remote/sftp/${session.id}`).catch(() => undefined);
    setSession(undefined);
    setEntries(undefined);
    setEnded({ reason: t('sftp.closed') });
  }

  const track = (transfer: Omit<Transfer, 'id' | 'loaded'>) => {
    const id = ++transferCount.current;
    setTransfers((all) => [...all.filter((x) => !x.done), { ...transfer, id, loaded: 0 }]);
    return (change: Partial<Transfer>) =>
      setTransfers((all) => all.map((x) => (x.id === id ? { ...x, ...change } : x)));
  };

  async function upload(file: File | null) {
    if (!file || !base) return;
    const update = track({ name: file.name, kind: 'upload', total: file.size });
    if (file.size > MAX_FILE_SIZE_BYTES) return update({ error: t('sftp.tooLarge') });
    try {
      await uploadFile('PUT', `${base}/file`, file, {
        query: { path: join(folder, file.name) },
        onProgress: (loaded, total) => update({ loaded, total }),
      });
      update({ done: true, loaded: file.size });
      await load(folder);
    } catch (error) {
      update({ error: message(error) });
    }
  }

  async function download(entry: SftpEntry) {
    const update = track({ name: entry.name, kind: 'download', total: entry.size });
    try {
      await downloadFile(`${base}/file`, {
        query: { path: entry.path },
        fallbackName: entry.name,
        read: (response) =>
          readWithProgress(response, (loaded, total) => update({ loaded, ...(total ? { total } : {}) })),
      });
      update({ done: true });
    } catch (error) {
      update({ error: message(error) });
    }
  }

  /**
   * Carries out what the dialog asked; the dialog stays open until the device has answered,
   * and a refusal is told in it with the name as typed. Returns that refusal, if any.
   */
  async function answer(value: string): Promise<string | undefined> {
    const now = asking;
    if (!now) return undefined;
    try {
      if (now.kind === 'mkdir') await api.post(`${base}/folders`, { path: join(folder, value) });
      else if (now.kind === 'rename')
        await api.post(`${base}/rename`, { from: now.entry.path, to: join(folder, value) });
      else await api.delete(`${base}/file`, { query: { path: now.entry.path } });
    } catch (error) {
      return message(error);
    }
    setAsking(undefined);
    await load(folder);
    return undefined;
  }

  const crumbs = folder.split('/').filter(Boolean);
  return (
    <Stack p="md" gap="sm" mih="100vh" data-testid="connect-sftp">
      <ConnectHeader title={t('sftp.title')} name={name} user={user} testId="sftp">
        {session ? (
          <Button variant="default" onClick={() => void disconnect()} data-testid="sftp-disconnect">
            {t('ssh.disconnect')}
          </Button>
        ) : (
          <Button variant="default" onClick={() => window.close()}>
            {t('close')}
          </Button>
        )}
      </ConnectHeader>

      {!session && (
        <DeviceSignIn
          intro={t('sftp.intro')}
          ended={ended}
          again={Boolean(ended)}
          busy={opening}
          onSubmit={(login) => void open(login)}
          testId="sftp"
        />
      )}

      {session && (
        <>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Breadcrumbs separatorMargin={4} data-testid="sftp-path">
              <UnstyledButton onClick={() => void load('/')} aria-label={t('sftp.top')} td="underline">
                <IconHome size={14} aria-hidden />
              </UnstyledButton>
              {crumbs.map((part, index) => (
                <UnstyledButton
                  td="underline"
                  key={`/${crumbs.slice(0, index + 1).join('/')}`}
                  onClick={() => void load(`/${crumbs.slice(0, index + 1).join('/')}`)}
                >
                  {part}
                </UnstyledButton>
              ))}
            </Breadcrumbs>
            <Group gap="xs">
              <Tooltip label={t('sftp.up')}>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={t('sftp.up')}
                  disabled={folder === '/'}
                  onClick={() => void load(parentOf(folder))}
                >
                  <IconCornerLeftUp size={16} />
                </ActionIcon>
              </Tooltip>
              <Tooltip label={t('sftp.refresh')}>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={t('sftp.refresh')}
                  onClick={() => void load(folder)}
                >
                  <IconRefresh size={16} />
                </ActionIcon>
              </Tooltip>
              <Button
                variant="default"
                leftSection={<IconFolderPlus size={16} />}
                onClick={() => setAsking({ kind: 'mkdir' })}
                data-testid="sftp-mkdir"
              >
                {t('sftp.newFolder')}
              </Button>
              <FileButton onChange={(file) => void upload(file)}>
                {(props) => (
                  <Button {...props} leftSection={<IconUpload size={16} />} data-testid="sftp-upload">
                    {t('sftp.upload')}
                  </Button>
                )}
              </FileButton>
            </Group>
          </Group>

          {problem && (
            <Alert
              color="red"
              role="alert"
              withCloseButton
              onClose={() => setProblem(undefined)}
              data-testid="sftp-problem"
            >
              {problem}
            </Alert>
          )}

          {transfers.length > 0 && (
            <Stack gap={6} data-testid="sftp-transfers">
              {transfers.map((x) => (
                <Stack
                  key={x.id}
                  gap={2}
                  data-testid="sftp-transfer"
                  data-state={x.error ? 'failed' : x.done ? 'done' : 'running'}
                >
                  <Group justify="space-between" gap="xs">
                    <Text size="sm" truncate>
                      {t(x.kind === 'upload' ? 'sftp.uploading' : 'sftp.downloading', { name: x.name })}
                    </Text>
                    <Text size="xs" c={x.error ? 'red' : 'dimmed'}>
                      {x.error ??
                        (x.done
                          ? t('sftp.done')
                          : `${formatBytes(x.loaded)}${x.total ? ` / ${formatBytes(x.total)}` : ''}`)}
                    </Text>
                  </Group>
                  <Progress
                    value={x.done ? 100 : x.total ? (100 * x.loaded) / x.total : 0}
                    color={x.error ? 'red' : x.done ? 'green' : 'blue'}
                    size="sm"
                    aria-label={x.name}
                  />
                </Stack>
              ))}
            </Stack>
          )}

          <ScrollArea type="auto">
            <Table striped highlightOnHover miw={560} data-testid="sftp-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('sftp.name')}</Table.Th>
                  <Table.Th ta="right">{t('sftp.size')}</Table.Th>
                  <Table.Th>{t('sftp.modified')}</Table.Th>
                  <Table.Th>{t('sftp.permissions')}</Table.Th>
                  <Table.Th w={120}>{t('sftp.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries?.length === 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Text c="dimmed" size="sm" data-testid="sftp-empty">
                        {t('sftp.empty')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
                {entries?.map((entry) => (
                  <Table.Tr
                    key={entry.path}
                    data-testid="sftp-entry"
                    data-name={entry.name}
                    data-type={entry.type}
                  >
                    <Table.Td>
                      <Group gap={6} wrap="nowrap">
                        {entry.type === 'directory' ? (
                          <IconFolder size={16} aria-hidden />
                        ) : entry.type === 'link' ? (
                          <IconLink size={16} aria-hidden />
                        ) : (
                          <IconFile size={16} aria-hidden />
                        )}
                        {entry.type === 'directory' || entry.type === 'link' ? (
                          <UnstyledButton td="underline" fz="sm" onClick={() => void load(entry.path)}>
                            {entry.name}
                          </UnstyledButton>
                        ) : (
                          <Text size="sm">{entry.name}</Text>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td ta="right">
                      <Text size="sm">{entry.type === 'directory' ? '' : formatBytes(entry.size)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatTime(entry.modified_at)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Code>{entry.permissions}</Code>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={2} wrap="nowrap">
                        {entry.type === 'file' && (
                          <Tooltip label={t('sftp.download')}>
                            <ActionIcon
                              variant="subtle"
                              aria-label={`${t('sftp.download')} ${entry.name}`}
                              onClick={() => void download(entry)}
                              data-testid="sftp-download"
                            >
                              <IconDownload size={16} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                        <Tooltip label={t('sftp.rename')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`${t('sftp.rename')} ${entry.name}`}
                            onClick={() => setAsking({ kind: 'rename', entry })}
                            data-testid="sftp-rename"
                          >
                            <IconPencil size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('sftp.delete')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`${t('sftp.delete')} ${entry.name}`}
                            onClick={() => setAsking({ kind: 'delete', entry })}
                            data-testid="sftp-delete"
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
          <Group gap="xs">
            <Badge variant="light" color="green" data-testid="sftp-state">
              {t('ssh.state.connected')}
            </Badge>
            <Text size="xs" c="dimmed">
              {t('ssh.hostKey')} <Code>{session.host_key}</Code>
            </Text>
          </Group>
        </>
      )}

      <NameDialog asking={asking} onCancel={() => setAsking(undefined)} onAnswer={answer} />
    </Stack>
  );
}

/** Asks for a folder's name, an entry's new name, or whether to delete it. */
function NameDialog({
  asking,
  onCancel,
  onAnswer,
}: {
  asking: Asking | undefined;
  onCancel(): void;
  onAnswer(value: string): Promise<string | undefined>;
}) {
  const { t } = useTranslation('connect');
  const [value, setValue] = useState('');
  const [pending, setPending] = useState(false);
  const [refusal, setRefusal] = useState<string>();
  const [tried, setTried] = useState(false);
  useEffect(() => {
    setValue(asking?.kind === 'rename' ? asking.entry.name : '');
    setRefusal(undefined);
    setTried(false);
  }, [asking]);
  const invalid = value.includes('/')
    ? t('sftp.slash')
    : tried && !value.trim()
      ? t('sftp.nameRequired')
      : undefined;
  async function submit() {
    setTried(true);
    if (pending || (asking?.kind !== 'delete' && (!value.trim() || value.includes('/')))) return;
    setPending(true);
    setRefusal(await onAnswer(value.trim()));
    setPending(false);
  }
  const title =
    asking?.kind === 'mkdir'
      ? t('sftp.newFolder')
      : asking?.kind === 'rename'
        ? t('sftp.renameTitle', { name: asking.entry.name })
        : t('sftp.deleteTitle');
  return (
    <Modal opened={Boolean(asking)} onClose={onCancel} title={title} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        noValidate
      >
        <Stack gap="sm">
          {asking?.kind === 'delete' ? (
            <Text size="sm">
              {t(asking.entry.type === 'directory' ? 'sftp.deleteFolder' : 'sftp.deleteFile', {
                name: asking.entry.name,
              })}
            </Text>
          ) : (
            <TextInput
              label={t('sftp.name')}
              value={value}
              onChange={(event) => {
                setValue(event.currentTarget.value);
                setRefusal(undefined);
              }}
              error={invalid ?? refusal}
              required
              maxLength={255}
              data-autofocus
              data-testid="sftp-name"
            />
          )}
          {asking?.kind === 'delete' && refusal && (
            <Text size="sm" c="red" role="alert" data-testid="sftp-refusal">
              {refusal}
            </Text>
          )}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={onCancel}>
              {t('sftp.cancel')}
            </Button>
            <Button
              type="submit"
              color={asking?.kind === 'delete' ? 'red' : undefined}
              loading={pending}
              data-testid="sftp-confirm"
            >
              {asking?.kind === 'delete' ? t('sftp.delete') : t('sftp.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
