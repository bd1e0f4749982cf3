import { Center, Loader, Paper } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormView } from '#src/components/forms/FormView';
import { FirstPermitted } from '#src/components/page/FirstPermitted';
import { PageFrame } from '#src/components/page/PageFrame';
import { isKnownForm, loadForm } from '#src/lib/forms/registry';
import { formWindowId } from '#src/lib/forms/submit';
import type { PageProps } from '#src/lib/routing/page';
import { useSession } from '#src/lib/session/session-context';

/** react-router keeps the history index in history.state: 0 means there is no page to go back to. */
function canGoBack(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/**
 * The full-page form of product §2 (`/forms/:form_name/:id?`): the named form, the record
 * of `:id` loaded when the form says how; after a save it goes back one page unless the
 * form says to stay. A name no form answers to is like any other unknown path (product §2):
 * the first page the user may see.
 */
export function FormRoutePage({ chain, params }: PageProps) {
  const { t: tAny } = useTranslation();
  const { can } = useSession();
  const navigate = useNavigate();
  const name = params.form_name ?? '';
  const id = params.id;
  const definition = useQuery({
    queryKey: ['form-definition', name],
    queryFn: () => loadForm(name),
    enabled: isKnownForm(name),
    staleTime: Number.POSITIVE_INFINITY,
  });

  if (!isKnownForm(name)) return <FirstPermitted />;
  if (definition.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  const form = definition.data;
  if (!form) return <FirstPermitted />;
  // A form gated by a permission is not entered without it (product §5 route guard).
  if (form.permission && !can(form.permission)) return <FirstPermitted />;

  const title = tAny(id && form.title.edit ? form.title.edit : form.title.create, { ns: form.ns, id });
  return (
    <PageFrame chain={chain} params={params} title={title}>
      <Paper withBorder p="lg" maw={720}>
        <FormView
          definition={form}
          id={id}
          formId={formWindowId(form.name, id)}
          onCancel={() => (canGoBack() ? navigate(-1) : navigate(form.fallbackPath ?? '/'))}
          onSuccess={() => {
            if (form.skipNavigation) return;
            // product §2: after a successful save, back one page.
            if (canGoBack()) navigate(-1);
            else navigate(form.fallbackPath ?? '/', { replace: true });
          }}
        />
      </Paper>
    </PageFrame>
  );
}
