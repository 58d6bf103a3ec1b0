import { Route, Routes } from 'react-router';
import { NotFoundPage } from '../features/errors/NotFoundPage';
import { LoginLanding } from './auth/LoginLanding';
import { RouteGuard } from './auth/RouteGuard';
import { AppLayout } from './layout/AppLayout';
import { appRoutes } from './routes';

/**
 * The route tree, in react-router's declarative mode (`<BrowserRouter>` in App.tsx). The app uses none of the data
 * router's loaders, actions or fetchers (every read goes through React Query, started by the route table's
 * `prefetch`), so the data router's code (~14 kB brotli of the entry script) is not loaded.
 * Navigations are still transitions (BrowserRouter wraps its location updates in startTransition).
 */
export function AppRoutes({ callbackPath }: { callbackPath: string }) {
  return (
    <Routes>
      <Route element={<AppLayout />}>
        {appRoutes.map(({ path, access, page: Page, deniedMessages }) => (
          <Route
            key={path}
            path={path}
            element={
              <RouteGuard access={access} deniedMessages={deniedMessages}>
                <Page />
              </RouteGuard>
            }
          />
        ))}
        <Route path={callbackPath} element={<LoginLanding />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
