import { Alert, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FormDefinition } from '#src/lib/forms/types';
import { api, type Envelope } from '#src/lib/http/client';
import { SchemaForm } from './SchemaForm';

type Props = {
  definition: FormDefinition;
  id: string | undefined;
  formId: string;
  onSuccess?(response: Envelope<unknown>): void;
  onCancel?(): void;
};

/** Loads the record for `id` when the definition says how, then shows the form. */
export function FormView({ definition, id, formId, onSuccess, onCancel }: Props) {
  const { t } = useTranslation('forms');
  const Body = definition.body;
  const load = id && definition.load ? definition.load : null;
  const record = useQuery({
    queryKey: ['form-record', definition.name, id],
    queryFn: async () => (await api.get<unknown>(load!.path(id!), { keepOnRouteChange: true })).data,
    enabled: Boolean(load),
    gcTime: 0,
    staleTime: 0,
  });
  if (load && record.isPending)
    return (
      <Center py="lg">
        <Loader />
      </Center>
    );
  if (Body)
    return (
      <Body
        definition={definition}
        id={id}
        formId={formId}
        {...(onSuccess ? { onSuccess } : {})}
        {...(onCancel ? { onCancel } : {})}
      />
    );
  if (load && record.isError)
    return (
      <Alert color="red" role="alert" data-testid="form-load-error">
        {record.error instanceof Error ? record.error.message : t('error.loadFailed')}
      </Alert>
    );
  return (
    <SchemaForm
      definition={definition}
      id={id}
      formId={formId}
      {...(load && record.data !== undefined ? { initialValues: load.toValues(record.data) } : {})}
      {...(onSuccess ? { onSuccess } : {})}
      {...(onCancel ? { onCancel } : {})}
    />
  );
}
