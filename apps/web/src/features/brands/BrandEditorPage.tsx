import { Alert, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '#src/components/page/PageFrame';
import { failureMessage } from '#src/lib/http/results';
import type { PageProps } from '#src/lib/routing/page';
import { useBrands } from './api/brands';
import { BrandEditor } from './components/BrandEditor';

/** One brand's settings (`/system/brands/{id}`, or `new` for a brand not saved yet). */
export function BrandEditorPage({ chain, params }: PageProps) {
  const { t } = useTranslation('brands');
  const brands = useBrands();
  const isNew = params.id === 'new';
  const record = isNew ? undefined : brands.data?.find((brand) => brand.id === Number(params.id));
  const title = isNew ? t('new') : (record?.host ?? record?.app_name);
  return (
    <PageFrame chain={chain} params={params} title={title}>
      {brands.isPending ? (
        <Loader />
      ) : brands.isError ? (
        <Alert color="red">{failureMessage(brands.error, 'get', 'brand')}</Alert>
      ) : !isNew && !record ? (
        <Alert color="red">{t('notFound')}</Alert>
      ) : (
        <BrandEditor key={record?.id ?? 'new'} record={record} />
      )}
    </PageFrame>
  );
}
