import { AppShell, Box, Overlay } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation, useSearchParams } from 'react-router';
import { useHelp } from '#src/components/page/help-context';
import { useCurrentRoute } from '#src/lib/routing/current-route';
import { useSession } from '#src/lib/session/session-context';
import { local } from '#src/lib/storage/local-storage';
import { Header } from '../header/Header';
import { Navigation } from '../navigation/Navigation';
import './fit.css';
import { useAutomaticHelp } from './automatic-help';
import { ImpersonationBanner } from './ImpersonationBanner';
import { Logo } from './Logo';
import { NetworkStatus } from './NetworkStatus';
import transitions from './page-transition.module.css';
import { ScrollTop } from './ScrollTop';
import { SessionTimeout } from './SessionTimeout';
import { UpdatePrompt } from './UpdatePrompt';

export const WIDE_NAV_KEY = 'wideNav';
const HEADER_HEIGHT = 56;
/** The impersonation banner sits on top of the header, inside the fixed bar (product §2 Layout). */
const BANNER_HEIGHT = 32;

// The help panel (a drawer and its typography) comes when help first opens, not with the page.
const HelpPanel = lazy(() => import('./HelpPanel').then((module) => ({ default: module.HelpPanel })));

/**
 * The chrome of product §2 Layout around every non-standalone route: impersonation banner,
 * navigation, header, the routed page, help panel, scroll-to-top, update prompt.
 */
export function Layout() {
  const location = useLocation();
  const [search] = useSearchParams();
  const current = useCurrentRoute();
  const queryClient = useQueryClient();
  const phone = useMediaQuery('(max-width: 47.99em)') ?? false;
  // product §2: wide unless stored as false.
  const [wide, setWide] = useState(() => local.get<boolean>(WIDE_NAV_KEY, true) !== false);
  const [mobileOpen, setMobileOpen] = useState(false);
  const [reloads, setReloads] = useState(0);
  const mobileMode = search.get('platform') === 'mobile';
  const impersonating = useSession().user.isImpersonating;

  // The mobile overlay closes on route change and locks page scrolling while open.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closes on every navigation.
  useEffect(() => setMobileOpen(false), [location.pathname]);
  useEffect(() => {
    document.body.style.overflow = phone && mobileOpen ? 'hidden' : '';
    return () => {
      document.body.style.overflow = '';
    };
  }, [phone, mobileOpen]);

  const helpClosed = useAutomaticHelp(current.chain);
  // Once drawn, the panel stays mounted: it closes with its transition and gives focus back.
  const helpOpen = useHelp().routeName !== null;
  const [helpDrawn, setHelpDrawn] = useState(helpOpen);
  if (helpOpen && !helpDrawn) setHelpDrawn(true);

  const toggleWide = () =>
    setWide((w) => {
      local.set(WIDE_NAV_KEY, !w);
      return !w;
    });

  const reload = () => {
    void queryClient.invalidateQueries();
    setReloads((n) => n + 1);
  };

  const { params } = current;
  // product §2 Layout: the page is re-keyed by route parameter id, company_id or name.
  const pageKey = `${params.id ?? ''}|${params.company_id ?? ''}|${params.form_name ?? params.name ?? ''}|${reloads}`;
  const transition = current.chain.at(-1)?.transition ?? 'toRight';

  return (
    <>
      <AppShell
        header={mobileMode ? undefined : { height: HEADER_HEIGHT + (impersonating ? BANNER_HEIGHT : 0) }}
        navbar={
          mobileMode
            ? undefined
            : {
                width: { base: 280, sm: wide ? 260 : 76 },
                breakpoint: 'sm',
                collapsed: { mobile: !mobileOpen, desktop: false },
              }
        }
        padding="md"
        zIndex={200}
        data-wide-nav={wide}
      >
        {!mobileMode && (
          <AppShell.Header>
            <ImpersonationBanner height={BANNER_HEIGHT} />
            <Box h={HEADER_HEIGHT}>
              <Header
                wide={wide}
                onToggleWide={toggleWide}
                mobileOpen={mobileOpen}
                onToggleMobile={() => setMobileOpen((o) => !o)}
              />
            </Box>
          </AppShell.Header>
        )}
        {!mobileMode && (
          <AppShell.Navbar data-testid="navigation" data-open={mobileOpen || undefined}>
            <AppShell.Section py="xs">
              <Logo wide={wide || phone} />
            </AppShell.Section>
            <AppShell.Section grow component="div" style={{ minHeight: 0 }}>
              <Navigation wide={wide || phone} onNavigate={() => setMobileOpen(false)} onReload={reload} />
            </AppShell.Section>
          </AppShell.Navbar>
        )}
        {phone && mobileOpen && (
          <Overlay
            fixed
            zIndex={150}
            backgroundOpacity={0.35}
            onClick={() => setMobileOpen(false)}
            data-testid="nav-overlay"
          />
        )}
        <AppShell.Main>
          {mobileMode && <ImpersonationBanner height={BANNER_HEIGHT} />}
          <div
            key={pageKey}
            className={transition === 'none' ? undefined : transitions[transition]}
            data-page-key={pageKey}
          >
            <Outlet />
          </div>
        </AppShell.Main>
      </AppShell>
      {helpDrawn && (
        <Suspense fallback={null}>
          <HelpPanel onClose={helpClosed} />
        </Suspense>
      )}
      <ScrollTop />
      <UpdatePrompt />
      <NetworkStatus />
      <SessionTimeout />
    </>
  );
}
