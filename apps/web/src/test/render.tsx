import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { theme } from '../app/theme';
import { Toaster } from '../ui/toast';

/**
 * Renders `ui` as the app does (Mantine with the portal's theme, React Query without retries, a router at `path`, with
 * `toasts` the app's toasts) with a user to act on it.
 */
export function renderWithApp(
  ui: ReactElement,
  { path = '/', toasts = false }: { path?: string; toasts?: boolean } = {},
) {
  const user = userEvent.setup();
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          {children}
          {toasts && <Toaster />}
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>
  );
  return { user, queryClient, ...render(ui, { wrapper }) };
}

/** The input labelled `name` exactly, also when Mantine marks it required with an asterisk ('E-Mail-Adresse *'). */
export const fieldLabel = (name: string) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);
