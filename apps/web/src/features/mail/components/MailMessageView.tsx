import type { MailStatus } from '@fleetgate/shared/schemas/mail';
import { Alert, Anchor, Badge, Center, Code, Group, Loader, Stack, Table, Text } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { failureMessage } from '#src/lib/http/results';
import { formatTime } from '#src/lib/time';
import { useMailMessage } from '../api/mail';

export const STATUS_COLORS: Record<MailStatus, string> = {
  sent: 'green',
  unsent: 'yellow',
  failed: 'red',
  suppressed: 'gray',
};

const URL_PATTERN = /(https?:\/\/[^\s<>"']+)/g;

/** The plain text with its web links clickable (http and https only; everything else stays text). */
function linkified(text: string): ReactNode[] {
  let offset = 0;
  return text.split(URL_PATTERN).map((part) => {
    const at = offset;
    offset += part.length;
    // split() with a capturing group puts the matched links at odd positions; test the text itself.
    return /^https?:\/\//.test(part) ? (
      <Anchor key={at} href={part} target="_blank" rel="noopener noreferrer" data-testid="mail-link">
        {part}
      </Anchor>
    ) : (
      <Fragment key={at}>{part}</Fragment>
    );
  });
}

/** One logged message (product §2 mail.logs): envelope, status and its text, so invitation links are readable. */
export function MailMessageView({ id }: { id: number }) {
  const { t } = useTranslation('mail');
  const message = useMailMessage(id);
  if (message.isPending)
    return (
      <Center py="lg">
        <Loader />
      </Center>
    );
  if (message.isError)
    return (
      <Alert color="red" role="alert">
        {failureMessage(message.error, 'get', 'message')}
      </Alert>
    );
  const m = message.data;
  return (
    <Stack gap="sm" data-testid="mail-message">
      <Table withRowBorders={false} verticalSpacing={2}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={110}>{t('column.to')}</Table.Th>
            <Table.Td>{m.to}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('column.subject')}</Table.Th>
            <Table.Td>{m.subject}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('column.template')}</Table.Th>
            <Table.Td>
              <Code>{m.template}</Code>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('column.status')}</Table.Th>
            <Table.Td>
              <Group gap="xs">
                <Badge color={STATUS_COLORS[m.status]} variant="light">
                  {t(`status.${m.status}`)}
                </Badge>
                {m.error && (
                  <Text size="sm" c="dimmed">
                    {m.error}
                  </Text>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>{t('column.created')}</Table.Th>
            <Table.Td>{formatTime(m.created_at)}</Table.Td>
          </Table.Tr>
          {m.sent_at && (
            <Table.Tr>
              <Table.Th>{t('column.sent')}</Table.Th>
              <Table.Td>{formatTime(m.sent_at)}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <Text
        component="pre"
        size="sm"
        p="sm"
        bg="var(--mantine-color-default-hover)"
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', borderRadius: 4, margin: 0 }}
        data-testid="mail-text"
      >
        {linkified(m.text)}
      </Text>
    </Stack>
  );
}
