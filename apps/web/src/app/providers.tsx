import { BRAND_DEFAULTS, type BrandSettings } from '@fleetgate/shared/brand';
import { TOAST } from '@fleetgate/shared/constants';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { BrandContext } from '#src/lib/brand/context';
import { cookieColorSchemeManager } from '../features/account-widget/preferences/dark-mode';
import { brandTheme, cssVariablesResolver } from './theme';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

/** Dark mode of product §4: kept in a cookie, 'auto' (the default) follows the operating system. */
const colorSchemeManager = cookieColorSchemeManager();

/** Brand, theme, data cache and toasts around every screen. */
export function Providers({
  children,
  brand = BRAND_DEFAULTS,
}: {
  children: ReactNode;
  brand?: BrandSettings;
}) {
  const theme = useMemo(() => brandTheme(brand), [brand]);
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      colorSchemeManager={colorSchemeManager}
      defaultColorScheme="auto"
    >
      <Notifications position="top-center" limit={TOAST.maxVisible} autoClose={TOAST.durationMs} />
      <BrandContext.Provider value={brand}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </BrandContext.Provider>
    </MantineProvider>
  );
}
