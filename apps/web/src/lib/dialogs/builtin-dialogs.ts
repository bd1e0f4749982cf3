import i18next from 'i18next';
import { ActionStatusDialog } from './ActionStatusDialog';
import { ErrorDialog } from './ErrorDialog';
import { JsonViewerDialog } from './JsonViewerDialog';
import { registerDialog } from './registry';

/** The dialogs every screen may open by name. */
export function registerBuiltinDialogs(): void {
  registerDialog('error', ErrorDialog, { title: () => i18next.t('dialogs:error.title'), size: 'sm' });
  registerDialog('actionStatus', ActionStatusDialog, {
    title: () => i18next.t('dialogs:actionStatus.title'),
  });
  registerDialog('jsonViewer', JsonViewerDialog, {
    title: (props: { value: unknown; title?: string }) => props.title ?? i18next.t('dialogs:json.title'),
    size: 'lg',
  });
}
