import i18next from 'i18next';
import { useWindow } from '#src/lib/dialogs/window-context';
import { type WindowsStore, windowsStore } from '#src/lib/dialogs/windows-store';
import { loadForm } from '#src/lib/forms/registry';
import { formWindowId } from '#src/lib/forms/submit';
import type { FormDefinition } from '#src/lib/forms/types';
import { FormView } from './FormView';

function FormWindowBody({ definition, id }: { definition: FormDefinition; id: string | undefined }) {
  const window = useWindow();
  return (
    <FormView
      definition={definition}
      id={id}
      formId={window?.id ?? formWindowId(definition.name, id)}
      onCancel={() => window?.close()}
      onSuccess={() => {
        // product §4: the modal closes after success unless leaveOpen.
        if (!definition.leaveOpen) window?.close();
      }}
    />
  );
}

/**
 * Opens a form in a window. The window id comes from the form (name and record id), so
 * opening the same form again replaces it (product §2). Returns the window id.
 */
export async function openForm(
  form: string | FormDefinition,
  options: { id?: string | number; store?: WindowsStore } = {},
): Promise<string> {
  const definition = typeof form === 'string' ? await loadForm(form) : form;
  if (!definition) throw new Error(`Unknown form: ${String(form)}`);
  const id = options.id === undefined ? undefined : String(options.id);
  const store = options.store ?? windowsStore;
  const title = i18next.t(id && definition.title.edit ? definition.title.edit : definition.title.create, {
    ns: definition.ns,
    id,
  });
  return store.open(
    FormWindowBody,
    { definition, id },
    { id: formWindowId(definition.name, id), title, size: 'md' },
  );
}
