import { notifications } from '@mantine/notifications';

/**
 * The toasts of product §8 Results, in one place: the action helper (use-action.ts) and the
 * forms engine both show what succeeded and what failed through these.
 */
export function notifySuccess(message: string): void {
  notifications.show({ color: 'green', message });
}

/** A failure in the product's wording (results.ts failureMessage, or a form's single error). */
export function notifyFailure(message: string): void {
  notifications.show({ color: 'red', message });
}

/** Neither success nor failure: what the console did instead ('The default timezone is used'). */
export function notifyInfo(message: string): void {
  notifications.show({ message });
}
