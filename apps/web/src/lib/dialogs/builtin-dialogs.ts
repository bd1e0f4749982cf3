import i18next from 'i18next';
import { type ComponentType, createElement } from 'react';
import { ErrorDialog } from './ErrorDialog';
import { JsonViewerDialog } from './JsonViewerDialog';
import { dialog } from './lazy-dialog';
import type { DialogProps, RegisteredDialog } from './registry';
import type { WindowSize } from './windows-state';

/**
 * One of the dialog system's own, drawn at once: forms on every screen, the account side's
 * included, open them right after an answer and show their content straight away.
 */
function builtin<P extends object>(
  component: ComponentType<P>,
  title: (props: P) => string,
  size: WindowSize = 'md',
): RegisteredDialog {
  return {
    render: (props: DialogProps) => createElement(component, props as P),
    title: (props: DialogProps) => title(props as P),
    size,
    load: async () => component,
  };
}

/** The dialogs every screen may open by name (product §4 'Action status', §8 'Error', §2 JSON viewer). */
export const BUILTIN_DIALOGS = {
  error: builtin(ErrorDialog, () => i18next.t('dialogs:error.title'), 'sm'),
  // Loaded when first opened: it brings the socket client, which the account side never needs.
  actionStatus: dialog(() => import('./ActionStatusDialog').then((module) => module.ActionStatusDialog), {
    title: () => i18next.t('dialogs:actionStatus.title'),
  }),
  jsonViewer: builtin(
    JsonViewerDialog,
    (props: { value: unknown; title?: string }) => props.title ?? i18next.t('dialogs:json.title'),
    'lg',
  ),
};
