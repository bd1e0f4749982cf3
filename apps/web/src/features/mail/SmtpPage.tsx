import { pathOf } from '@fleetgate/shared/routes';
import { Alert, Anchor, Badge, Button, Divider, Group, Paper, Skeleton, Stack, Table } from '@mantine/core';
import { IconMailCog, IconSend, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { openForm } from '#src/components/forms/open-form';
import { PageFrame } from '#src/components/page/PageFrame';
import { useWindows } from '#src/lib/dialogs/use-windows';
import { failureMessage, successMessage } from '#src/lib/http/results';
import { useAction } from '#src/lib/http/use-action';
import type { PageProps } from '#src/lib/routing/page';
import { formatTime } from '#src/lib/time';
import { mailActions, mailKeys, useSmtpConfig } from './api/mail';
import { SuppressionList } from './components/SuppressionList';
import { smtpTestForm } from './forms/mail-forms';

/**
 * email-smtp (product §2, super admin): the SMTP configuration behind every e-mail, a test
 * message, and the suppression list. Without a configuration messages are logged as
 * unsent and read in the mail log.
 */
export function SmtpPage({ chain, params }: PageProps) {
  const { t } = useTranslation('mail');
  const windows = useWindows();
  const config = useSmtpConfig();
  const removal = useAction({
    call: () => mailActions.removeSmtp(),
    failure: { verb: 'remove', item: 'SMTP configuration' },
    invalidate: [mailKeys.all],
    success: successMessage(t('result.smtp'), t('result.removed'), (parts) =>
      t('forms:result.success', parts),
    ),
  });

  async function remove() {
    const yes = await windows.confirm({
      title: t('smtp.removeTitle'),
      message: t('smtp.removeMessage'),
      confirmLabel: t('smtp.removeConfirm'),
      danger: true,
      id: 'smtp-remove',
    });
    if (!yes) return;
    await removal.run();
  }

  const c = config.data;
  const rows: [string, string][] = c
    ? [
        [t('smtp.server'), `${c.host}:${c.port}`],
        [
          t('smtp.security'),
          t(`security.${c.security}`) + (c.allow_invalid_certificate ? ` (${t('smtp.anyCertificate')})` : ''),
        ],
        [t('smtp.username'), c.username || t('smtp.noAuth')],
        [t('smtp.password'), c.password_set ? t('smtp.passwordSet') : t('smtp.passwordNotSet')],
        [t('smtp.from'), c.from_name ? `${c.from_name} <${c.from_address}>` : c.from_address],
        [t('smtp.updated'), formatTime(c.updated_at)],
      ]
    : [];

  return (
    <PageFrame
      chain={chain}
      params={params}
      actions={
        <Group gap="xs">
          {c && (
            <Button
              variant="default"
              leftSection={<IconSend size={16} />}
              onClick={() => void openForm(smtpTestForm)}
            >
              {t('test.open')}
            </Button>
          )}
          <Button
            leftSection={<IconMailCog size={16} />}
            onClick={() => windows.openNamed('smtpConfiguration', {}, { id: 'smtpConfiguration' })}
          >
            {t('smtp.configure')}
          </Button>
        </Group>
      }
    >
      <Stack gap="lg">
        <Paper withBorder p="md" data-testid="smtp-summary">
          {config.isPending ? (
            <Skeleton height={120} />
          ) : config.isError ? (
            <Alert color="red" role="alert">
              {failureMessage(config.error, 'get', 'SMTP configuration')}
            </Alert>
          ) : c ? (
            <Stack gap="sm">
              <Group justify="space-between">
                <Badge color="green" variant="light" data-testid="smtp-state">
                  {t('smtp.configured')}
                </Badge>
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  leftSection={<IconTrash size={14} />}
                  onClick={() => void remove()}
                >
                  {t('smtp.remove')}
                </Button>
              </Group>
              <Table withRowBorders={false} verticalSpacing={4} maw={640}>
                <Table.Tbody>
                  {rows.map(([label, value]) => (
                    <Table.Tr key={label}>
                      <Table.Th w={180}>{label}</Table.Th>
                      <Table.Td>{value}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Stack>
          ) : (
            <Alert color="yellow" title={t('smtp.notConfigured')} data-testid="smtp-state">
              {t('smtp.notConfiguredText')}{' '}
              <Anchor component={Link} to={pathOf('mail.logs')}>
                {t('smtp.openMailLog')}
              </Anchor>
            </Alert>
          )}
        </Paper>
        <Divider />
        <SuppressionList />
      </Stack>
    </PageFrame>
  );
}
