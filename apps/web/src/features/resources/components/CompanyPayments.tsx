import type { CompanyPaymentType } from '@fleetgate/shared/schemas/companies';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { openForm } from '#src/components/forms/open-form';
import { useSession } from '#src/lib/session/session-context';

type Company = { id: number; name: string; payment_type: CompanyPaymentType };

/**
 * Payment control (product §6: shown to level 1 companies, which is the operator's own company
 * at the top of the tree): how the company shown is supplied with resources, paid or free, and
 * for the super admin, who decides it, the way to change it. A company's own users see instead,
 * on their company, the brand's buy link and notice when the company is paid and shows payment
 * (default theme, show_payment). Nothing shows otherwise.
 */
export function CompanyPayments({ company }: { company: Company }) {
  const { t } = useTranslation('resources');
  const { can, user, brand } = useSession();
  const control = user.show_payment_control;
  const paid = company.payment_type === 'paid';
  const own = user.company_id === company.id;
  const buyLink = own && paid && brand.default && user.show_payment && brand.buy_link ? brand.buy_link : null;
  if (!control && !buyLink) return null;
  return (
    <Paper withBorder p="md" data-testid="company-payments">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ flex: 1, minWidth: 220 }}>
          <Group gap="xs">
            <Title order={3} size="h5">
              {t(control ? 'payment.heading' : 'payment.buyHeading')}
            </Title>
            {control && (
              <Badge variant="light" color={paid ? 'teal' : 'orange'} tt="none" data-testid="payment-type">
                {t(`payment.${company.payment_type}`)}
              </Badge>
            )}
          </Group>
          {control && (
            <Text size="sm" c="dimmed">
              {t(paid ? 'payment.paidText' : 'payment.freeText')}
            </Text>
          )}
          {buyLink && brand.buy_notice && (
            <Text size="sm" data-testid="buy-notice">
              {brand.buy_notice}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          {buyLink && (
            <Button
              component="a"
              href={buyLink}
              target="_blank"
              rel="noopener noreferrer"
              rightSection={<IconExternalLink size={14} />}
              data-testid="buy-link"
            >
              {t('payment.buy')}
            </Button>
          )}
          {control && can('super_admin') && (
            <Button
              variant="default"
              leftSection={<IconSettings size={16} />}
              onClick={() => void openForm('companyFlags', { id: company.id })}
              data-testid="payment-change"
            >
              {t('payment.change')}
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
