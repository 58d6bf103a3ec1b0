import type { ReactNode } from 'react';
import { Typography } from '@mantine/core';

/** Long legal text with readable headings, lists and line length. */
export function LegalText({ children }: { children: ReactNode }) {
  return (
    <Typography maw={820} data-testid="legal-text">
      {children}
    </Typography>
  );
}
