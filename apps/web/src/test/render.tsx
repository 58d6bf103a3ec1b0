import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { MemoryRouter } from 'react-router';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { theme } from '../app/theme';

/** Renders `ui` as the app does (Mantine with the portal's theme, a router at `path`) with a user to act on it. */
export function renderWithApp(ui: ReactElement, { path = '/' }: { path?: string } = {}) {
  const user = userEvent.setup();
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={theme}>
      <MemoryRouter initialEntries={[path]}>{children}</MemoryRouter>
    </MantineProvider>
  );
  return { user, ...render(ui, { wrapper }) };
}
