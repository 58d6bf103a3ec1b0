import { Badge, createTheme, type MantineColorsTuple } from '@mantine/core';

/** The portal blue (#0b5cad, also used by the login page of the identity provider) as shade 6. */
const brand: MantineColorsTuple = [
  '#e8f1fb',
  '#d0e1f5',
  '#a0c1ea',
  '#6c9fe0',
  '#4283d7',
  '#2a72d2',
  '#0b5cad',
  '#094f96',
  '#07437f',
  '#043567',
];

export const theme = createTheme({
  colors: { brand },
  primaryColor: 'brand',
  primaryShade: 6,
  defaultRadius: 'sm',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontWeight: '700',
    sizes: { h1: { fontSize: '1.75rem', lineHeight: '1.3' }, h2: { fontSize: '1.35rem', lineHeight: '1.35' } },
  },
  // Mantine's lg breakpoint is the spec's 1200 px mobile breakpoint.
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  components: {
    // Mantine's badge clips its label (overflow hidden), so its smallest width is almost nothing and a table
    // squeezes a status to 'Wartet auf B…'. A badge is never narrower than its text.
    Badge: Badge.extend({ styles: { root: { minWidth: 'max-content', flexShrink: 0 } } }),
  },
});
