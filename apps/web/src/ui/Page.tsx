import type { ReactNode } from 'react';
import { Group, Stack, Title } from '@mantine/core';
import { usePageTitle } from './page-title';

interface PageProps {
  /** Heading and browser tab title ('SHK-Bestellportal | <title>'). */
  title: string;
  /** Shown in the tab title instead of `title` when they differ. */
  documentTitle?: string;
  /** Buttons next to the heading. */
  actions?: ReactNode;
  children?: ReactNode;
}

/** Frame of every page: one h1, the tab title and the content below. */
export function Page({ title, documentTitle, actions, children }: PageProps) {
  usePageTitle(documentTitle ?? title);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1}>{title}</Title>
        {actions}
      </Group>
      {children}
    </Stack>
  );
}
