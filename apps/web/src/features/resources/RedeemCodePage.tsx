import { pathOf } from '@fleetgate/shared/routes';
import type { Redeemed } from '@fleetgate/shared/schemas/resources';
import { Alert, Anchor, Paper, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SchemaForm } from '#src/components/forms/SchemaForm';
import { PageFrame } from '#src/components/page/PageFrame';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';
import { activateCodeForm } from './forms/resource-forms';

/**
 * service.add-credits, /redeem-code (product §2, §3 activateCode): one field for a transfer
 * code; what it gave the caller's company shows below, and the form is ready for the next.
 */
export function RedeemCodePage({ chain, params }: PageProps) {
  const { t } = useTranslation('resources');
  const { can } = useSession();
  const [redeemed, setRedeemed] = useState<Redeemed | null>(null);
  const [round, setRound] = useState(0);
  return (
    <PageFrame chain={chain} params={params}>
      <Stack maw={560}>
        <Text size="sm" c="dimmed">
          {t('redeem.intro')}
        </Text>
        <Paper withBorder p="lg">
          <SchemaForm
            key={round}
            definition={activateCodeForm}
            formId="page:activateCode"
            // The last code's result goes as the next is sent: an answer is about one code.
            onSend={() => setRedeemed(null)}
            onSuccess={(response) => {
              setRedeemed(response.data as Redeemed);
              setRound((n) => n + 1);
            }}
          />
        </Paper>
        {redeemed && (
          <Alert
            color="green"
            icon={<IconCircleCheck size={18} />}
            title={t('redeem.doneTitle')}
            data-testid="redeemed"
          >
            <Stack gap={4}>
              <Text size="sm">
                {t('redeem.done', { amount: redeemed.amount, type: redeemed.credit_type_name })}
              </Text>
              {can('view_credits') && (
                <Anchor component={Link} to={pathOf('services.credit-history')} size="sm">
                  {t('redeem.history')}
                </Anchor>
              )}
            </Stack>
          </Alert>
        )}
      </Stack>
    </PageFrame>
  );
}
