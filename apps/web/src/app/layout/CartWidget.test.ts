import { describe, expect, it } from 'vitest';
import source from './CartWidget.tsx?raw';
import flyoutSource from './CartFlyout.tsx?raw';

describe('the header cart widget: the flyout’s code on the button’s first use', () => {
  it('has no static import of the Popover or the flyout (floating-ui, focus trap) in the button every page loads', () => {
    expect(source).not.toMatch(/import \{[^}]*\bPopover\b[^}]*\} from '@mantine\/core'/);
    expect(source).not.toMatch(/^import \{[^}]*\} from '\.\/CartFlyout'/m);
    expect(source).toMatch(/import\('\.\/CartFlyout'\)/);
  });

  it('opens the flyout once its code is there (first click) and lets its focus trap take the focus', () => {
    expect(source).toMatch(
      /loadFlyout\(\)\.then\(\(m\) => \{\s*setFlyout\(\(\) => m\.CartFlyout\);\s*flyout\.open\(\);/,
    );
    expect(flyoutSource).toMatch(/<Popover[\s\S]*trapFocus/);
    expect(flyoutSource).toMatch(/data-testid="cart-flyout" aria-label="Warenkorb wählen" role="dialog"/);
  });
});
