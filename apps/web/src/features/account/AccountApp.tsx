import { Center, Loader } from '@mantine/core';
import { type ComponentType, lazy, Suspense, useEffect } from 'react';
import { BrowserRouter, Navigate, type RouteObject, useRoutes } from 'react-router';
import { RouteBoundary } from '#src/components/page/RouteBoundary';
import { WindowsProvider } from '#src/lib/dialogs/WindowsProvider';

const page = <T,>(load: () => Promise<T>, pick: (m: T) => ComponentType) =>
  lazy(() => load().then((m) => ({ default: pick(m) })));

const SettingsLayout = page(
  () => import('../account-settings/SettingsLayout'),
  (m) => m.SettingsLayout,
);
const ProfilePage = page(
  () => import('../account-settings/pages/ProfilePage'),
  (m) => m.ProfilePage,
);
const SecurityPage = page(
  () => import('../account-settings/pages/SecurityPage'),
  (m) => m.SecurityPage,
);
const TokensPage = page(
  () => import('../account-settings/pages/TokensPage'),
  (m) => m.TokensPage,
);
const ImpersonationAccessPage = page(
  () => import('../account-settings/pages/ImpersonationAccessPage'),
  (m) => m.ImpersonationAccessPage,
);
const VerifyEmailPage = page(
  () => import('../account-settings/pages/VerifyEmailPage'),
  (m) => m.VerifyEmailPage,
);
const OidcCallbackPage = page(
  () => import('../account-settings/pages/OidcCallbackPage'),
  (m) => m.OidcCallbackPage,
);

const AcceptInvitationPage = page(
  () => import('./invitation/AcceptInvitationPage'),
  (m) => m.AcceptInvitationPage,
);

const loading = (
  <Center mih="100vh">
    <Loader />
  </Center>
);

/**
 * The sign-in page is a document of its own (sign-in.html, src/sign-in/): an address of the
 * account side that names no page here goes there with a full load.
 */
function ToSignIn() {
  useEffect(() => window.location.replace(`/account/login${window.location.search}`), []);
  return loading;
}

const routes: RouteObject[] = [
  { path: '/account/invitation/:token', element: <AcceptInvitationPage /> },
  { path: '/account/verify-email', element: <VerifyEmailPage /> },
  { path: '/account/oidc/callback', element: <OidcCallbackPage /> },
  {
    path: '/account/settings',
    element: <SettingsLayout />,
    children: [
      { index: true, element: <Navigate to="/account/settings/profile" replace /> },
      { path: 'profile', element: <ProfilePage /> },
      { path: 'security', element: <SecurityPage /> },
      { path: 'tokens', element: <TokensPage /> },
      { path: 'impersonation', element: <ImpersonationAccessPage /> },
      { path: '*', element: <Navigate to="/account/settings/profile" replace /> },
    ],
  },
  { path: '*', element: <ToSignIn /> },
];

/** A page that fails while it draws shows the route error, not a blank page. */
function AccountRoutes() {
  return <RouteBoundary>{useRoutes(routes)}</RouteBoundary>;
}

/**
 * The account side (`/account/*`) but the sign-in page: invitations, e-mail confirmation,
 * the vendor ID callback, and account settings. Its windows carry the password prompt (423)
 * and the second-step dialog (MFA_REQUIRED) of product §4, as in the console.
 */
export function AccountApp() {
  return (
    <WindowsProvider>
      <Suspense fallback={loading}>
        <BrowserRouter>
          <AccountRoutes />
        </BrowserRouter>
      </Suspense>
    </WindowsProvider>
  );
}
