import { createBrowserRouter, Navigate, RouterProvider } from 'react-router';
import { LoginPage } from './LoginPage';

const router = createBrowserRouter([
  { path: '/account/login', element: <LoginPage /> },
  { path: '*', element: <Navigate to="/account/login" replace /> },
]);

/** The account side (`/account/*`): pages that need no session. */
export function AccountApp() {
  return <RouterProvider router={router} />;
}
