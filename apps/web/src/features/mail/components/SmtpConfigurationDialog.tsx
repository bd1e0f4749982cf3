import { Alert, Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { FormView } from '#src/components/forms/FormView';
import { useWindow } from '#src/lib/dialogs/window-context';
import { formWindowId } from '#src/lib/forms/submit';
import { failureMessage } from '#src/lib/http/results';
import { fetchSmtpConfig, mailKeys } from '../api/mail';
import { buildSmtpForm } from '../forms/mail-forms';

/** 'SMTP configuration' (product §2 Dialog system): the form over what is saved now. */
export function SmtpConfigurationDialog() {
  const window = useWindow();
  const current = useQuery({
    queryKey: [...mailKeys.smtp(), 'form'],
    queryFn: fetchSmtpConfig,
    gcTime: 0,
    staleTime: 0,
  });
  if (current.isPending)
    return (
      <Center py="lg">
        <Loader />
      </Center>
    );
  if (current.isError)
    return (
      <Alert color="red" role="alert">
        {failureMessage(current.error, 'get', 'SMTP configuration')}
      </Alert>
    );
  const definition = buildSmtpForm(current.data);
  return (
    <FormView
      definition={definition}
      id={undefined}
      formId={window?.id ?? formWindowId(definition.name, undefined)}
      onCancel={() => window?.close()}
      onSuccess={() => window?.close()}
    />
  );
}
