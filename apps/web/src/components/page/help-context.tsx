import { createContext, type ReactNode, useContext, useMemo, useState } from 'react';

type Help = { routeName: string | null; open(routeName: string): void; close(): void };

const HelpContext = createContext<Help | null>(null);

export function HelpProvider({ children }: { children: ReactNode }) {
  const [routeName, setRouteName] = useState<string | null>(null);
  const value = useMemo<Help>(
    () => ({ routeName, open: setRouteName, close: () => setRouteName(null) }),
    [routeName],
  );
  return <HelpContext.Provider value={value}>{children}</HelpContext.Provider>;
}

/** Opens and closes the help side panel. */
export function useHelp(): Help {
  const help = useContext(HelpContext);
  if (!help) throw new Error('useHelp outside HelpProvider');
  return help;
}
