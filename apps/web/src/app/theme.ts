import { Badge, createTheme, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';
import { PORTAL_FONT_FAMILY } from '@shk/contracts';
import { layers } from '../ui/layers';

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
  // Filled badges and buttons in light colours (yellow, lime …) get dark text instead of white (WCAG AA).
  autoContrast: true,
  defaultRadius: 'sm',
  // The same family on the identity provider's login and password pages (apps/api/src/modules/identity/pages.ts).
  fontFamily: PORTAL_FONT_FAMILY,
  headings: {
    fontWeight: '700',
    sizes: { h1: { fontSize: '1.75rem', lineHeight: '1.3' }, h2: { fontSize: '1.35rem', lineHeight: '1.35' } },
  },
  // Mantine's lg breakpoint is the spec's 1200 px mobile breakpoint.
  breakpoints: { xs: '36em', sm: '48em', md: '62em', lg: '75em', xl: '88em' },
  components: {
    // Popovers, menus and select options open above the toasts (ui/layers.ts); Menu and Combobox draw a Popover.
    // Plain objects, not Popover.extend(): importing the components here would put floating-ui into the shell's
    // bundle, which loads tooltips and popovers with their first use.
    Popover: { defaultProps: { zIndex: layers.popups } },
    Tooltip: { defaultProps: { zIndex: layers.tooltips } },
    // Mantine's badge clips its label (overflow hidden), so a table squeezed it to 'Wartet auf B…'; a badge that
    // never shrinks below its text pushed a phone's page wider than the screen instead. A badge keeps its width
    // where there is room and otherwise wraps between words onto a second line, never cut and never wider than
    // its cell.
    Badge: Badge.extend({
      styles: {
        root: { flexShrink: 0, maxWidth: '100%', height: 'auto', minHeight: 'var(--badge-height)', paddingBlock: 2 },
        label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip', overflowWrap: 'normal' },
      },
    }),
  },
});

/**
 * WCAG 2.1 AA contrast (4.5:1 for normal text; e2e/a11y.spec.ts runs axe over every route): Mantine's
 * 'dimmed' (gray 6, 3.3:1 on white) becomes gray 7, and the text of light variants (badges, light buttons)
 * a dark shade of its colour instead of shade 6; coloured hint texts use these light-variant colours too.
 */
const lightVariantText: Record<string, string> = {
  yellow: '#6b4d00',
  orange: '#8a3c00',
  lime: '#3f5c00',
  green: '#1e6b2f',
  teal: '#0b6e50',
  cyan: '#0b6271',
};
const themeColors = ['dark', 'gray', 'red', 'pink', 'grape', 'violet', 'indigo', 'blue', 'cyan', 'teal', 'green'];
const lightColors = [...themeColors, 'lime', 'yellow', 'orange', 'brand'];

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // Placeholders drawn as elements (FileInput, Select) are text too: 4.7:1 on white instead of gray 5 (2.1:1).
    '--mantine-color-placeholder': '#6c757d',
    ...Object.fromEntries(
      lightColors.map((color) => [
        `--mantine-color-${color}-light-color`,
        lightVariantText[color] ?? `var(--mantine-color-${color}-9)`,
      ]),
    ),
  },
  dark: {},
});
