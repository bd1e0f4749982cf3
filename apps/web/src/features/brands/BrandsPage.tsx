import { pathOf } from '@fleetgate/shared/routes';
import { Alert, Badge, Button, ColorSwatch, Group, Loader, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '#src/components/page/PageFrame';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { useBrands } from './api/brands';

/**
 * The brands of this console (product §1), one per host name, edited by the super admin.
 * A browser gets the brand of the host name in its address bar, else the default one.
 */
export function BrandsPage({ chain, params }: PageProps) {
  const { t } = useTranslation('brands');
  const brands = useBrands();
  const actions = (
    <Button
      component={Link}
      to={pathOf('system.brand', { id: 'new' })}
      leftSection={<IconPlus size={16} />}
      data-testid="brand-add"
    >
      {t('add')}
    </Button>
  );
  return (
    <PageFrame chain={chain} params={params} actions={actions}>
      <Text size="sm" c="dimmed" mb="sm" maw={720}>
        {t('intro')}
      </Text>
      {brands.isPending ? (
        <Loader />
      ) : brands.isError ? (
        <Alert color="red">{failureMessage(brands.error, 'get', 'brands')}</Alert>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table highlightOnHover data-testid="brands-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('column.host')}</Table.Th>
                <Table.Th>{t('column.app_name')}</Table.Th>
                <Table.Th>{t('column.main_color')}</Table.Th>
                <Table.Th>{t('column.models')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {brands.data.map((brand) => (
                <Table.Tr key={brand.id} data-testid="brand-row">
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Link to={pathOf('system.brand', { id: brand.id })}>
                        {brand.host ?? (brand.default ? t('anyHost') : t('noHost'))}
                      </Link>
                      {brand.default && (
                        <Badge size="sm" variant="light">
                          {t('default')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{brand.app_name}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <ColorSwatch color={brand.main_color} size={16} aria-hidden />
                      <Text size="sm" ff="monospace">
                        {brand.main_color}
                      </Text>
                    </Group>
                  </Table.Td>
                  <Table.Td>{brand.branded_devices.length}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </PageFrame>
  );
}
