import type { ReactNode } from 'react';
import { BUILTIN_DIALOGS } from './builtin-dialogs';
import type { WindowSize } from './windows-state';

export { dialog } from './lazy-dialog';

export type DialogProps = Record<string, unknown>;

/** A named dialog of product §2 Dialog system, as the window manager opens it. */
export type RegisteredDialog = {
  render(props: DialogProps): ReactNode;
  /** The window title for these props (already translated); shown while the component loads. */
  title(props: DialogProps): ReactNode;
  size: WindowSize;
  /** Loads the dialog's component: the window does it when first opened, tests to walk every dialog. */
  load(): Promise<unknown>;
};

/**
 * The named dialogs by group: the dialog system's own here, the console's added by app/ (declaration
 * merging) from the feature manifests, so that a name nobody lists does not compile where it is opened.
 */
export interface DialogRegister {
  builtin: typeof BUILTIN_DIALOGS;
}

/** The name of a dialog some manifest lists (product §2 Dialog system). */
export type DialogName = {
  [Group in keyof DialogRegister]: Extract<keyof DialogRegister[Group], string>;
}[keyof DialogRegister];

let provided: Readonly<Record<string, RegisteredDialog>> = {};

/**
 * The console's named dialogs, assembled by app/ from the feature manifests before the console
 * renders; the dialog system's own (BUILTIN_DIALOGS) are always there, on the account side too.
 */
export function provideDialogs(dialogs: Readonly<Record<string, RegisteredDialog>>): void {
  provided = dialogs;
}

function lookup(name: string): RegisteredDialog | undefined {
  if (Object.hasOwn(BUILTIN_DIALOGS, name)) return BUILTIN_DIALOGS[name as keyof typeof BUILTIN_DIALOGS];
  return Object.hasOwn(provided, name) ? provided[name] : undefined;
}

/** The dialog behind a name; a name no manifest lists is a programming error and throws. */
export function registeredDialog(name: DialogName): RegisteredDialog {
  const entry = lookup(name);
  if (!entry) throw new Error(`Dialog "${name}" is not registered`);
  return entry;
}

export function isRegistered(name: DialogName): boolean {
  return lookup(name) !== undefined;
}
