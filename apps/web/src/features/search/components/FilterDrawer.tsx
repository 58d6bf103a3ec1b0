import type { ReactNode } from 'react';
import { Drawer } from '@mantine/core';

/** Categories and filters in a drawer on small screens (loaded by the search page when it first opens). */
export function FilterDrawer({
  opened,
  onClose,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Drawer opened={opened} onClose={onClose} title="Kategorien und Filter" size="md" padding="md">
      {children}
    </Drawer>
  );
}
