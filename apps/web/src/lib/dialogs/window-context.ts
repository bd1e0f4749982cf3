import { createContext, useContext } from 'react';
import { type WindowsStore, windowsStore } from './windows-store';

export type WindowHandle = {
  id: string;
  close(): void;
  minimize(): boolean;
};

export const WindowsStoreContext = createContext<WindowsStore>(windowsStore);
export const WindowHandleContext = createContext<WindowHandle | null>(null);

/** The window this component is shown in, or null when it is rendered on a page. */
export function useWindow(): WindowHandle | null {
  return useContext(WindowHandleContext);
}
