import { createBrowserRouter } from 'react-router';
import { NotFoundPage } from '../features/errors/NotFoundPage';
import { LoginLanding } from './auth/LoginLanding';
import { RouteGuard } from './auth/RouteGuard';
import { AppLayout } from './layout/AppLayout';
import { appRoutes } from './routes';

export function createAppRouter(callbackPath: string) {
  return createBrowserRouter([
    {
      element: <AppLayout />,
      children: [
        ...appRoutes.map(({ path, access, page: Page, deniedMessages }) => ({
          path,
          element: (
            <RouteGuard access={access} deniedMessages={deniedMessages}>
              <Page />
            </RouteGuard>
          ),
        })),
        { path: callbackPath, element: <LoginLanding /> },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
}
