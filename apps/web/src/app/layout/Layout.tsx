import { Box, Overlay } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { type CSSProperties, lazy, Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation, useSearchParams } from 'react-router';
import { useHelp } from '#src/components/page/help-context';
import { useCurrentRoute } from '#src/lib/routing/current-route';
import { useSession } from '#src/lib/session/session-context';
import { local } from '#src/lib/storage/local-storage';
import { Header } from '../header/Header';
import { Navigation } from '../navigation/Navigation';
import './fit.css';
import { useAutomaticHelp } from './automatic-help';
import { bannerHeight, ImpersonationBanner } from './ImpersonationBanner';
import { Logo } from './Logo';
import { NetworkStatus } from './NetworkStatus';
import transitions from './page-transition.module.css';
import { ScrollTop } from './ScrollTop';
import { SessionTimeout } from './SessionTimeout';
import shell from './Shell.module.css';
import { UpdatePrompt } from './UpdatePrompt';

export const WIDE_NAV_KEY = 'wideNav';
const HEADER_HEIGHT = 56;
/** The navigation's width: wide with names, or narrow with icons alone (product §2 wideNav). */
const NAV_WIDTH = { wide: 260, narrow: 76 } as const;

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
      <div
        className={shell.shell}
        style={
          {
            '--shell-header-height': mobileMode
              ? '0px'
              : `${HEADER_HEIGHT + (impersonating ? bannerHeight(phone) : 0)}px`,
            '--shell-navbar-width': mobileMode ? '0px' : `${wide ? NAV_WIDTH.wide : NAV_WIDTH.narrow}px`,
          } as CSSProperties
        }
      >
        {!mobileMode && (
          // The scroll lock of a modal window keeps this fixed bar where it is (react-remove-scroll's
          // class for fixed elements at the right edge, as Mantine's AppShell sets it).
          <header className={`${shell.header} right-scroll-bar-position`}>
            {/* The impersonation banner sits on top of the header, inside the fixed bar (product §2 Layout). */}
            <ImpersonationBanner phone={phone} />
            <Box h={HEADER_HEIGHT}>
              <Header
                wide={wide}
                onToggleWide={toggleWide}
                mobileOpen={mobileOpen}
                onToggleMobile={() => setMobileOpen((o) => !o)}
              />
            </Box>
          </header>
        )}
        {!mobileMode && (
          <div className={shell.navbar} data-testid="navigation" data-open={mobileOpen || undefined}>
            <div className={shell.navbarTop}>
              <Logo wide={wide || phone} />
            </div>
            <div className={shell.navbarRest}>
              <Navigation wide={wide || phone} onNavigate={() => setMobileOpen(false)} onReload={reload} />
            </div>
          </div>
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
        <main className={shell.main}>
          {mobileMode && <ImpersonationBanner phone={phone} />}
          <div
            key={pageKey}
            className={transition === 'none' ? undefined : transitions[transition]}
            data-page-key={pageKey}
          >
            <Outlet />
          </div>
        </main>
      </div>
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
