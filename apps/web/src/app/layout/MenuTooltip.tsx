import type { ReactElement } from 'react';
import { Tooltip } from '@mantine/core';

/** The reason a menu entry is disabled, on hover and focus (loaded on demand by MainMenu). */
export function MenuTooltip({ label, children }: { label: string; withArrow?: boolean; children: ReactElement }) {
  return (
    <Tooltip label={label} withArrow>
      {children}
    </Tooltip>
  );
}
