import { createElement } from 'react';
import { windowsStore } from '#src/lib/dialogs/windows-store';
import { MailMessageView } from './components/MailMessageView';

/** Opens one logged message in a window (one window per message). */
export function openMailMessage(id: number, subject: string): string {
  return windowsStore.open(
    (props: { id: number }) => createElement(MailMessageView, props),
    { id },
    {
      id: `mail-message:${id}`,
      title: subject,
      size: 'lg',
    },
  );
}
