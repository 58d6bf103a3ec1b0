import { describe, expect, it } from 'vitest';
import source from './CartWidget.tsx?raw';
import flyoutSource from './CartFlyout.tsx?raw';

describe('the header cart widget: the flyout’s code on the button’s first use', () => {
  it('has no static import of the Popover or the flyout (floating-ui, focus trap) in the button every page loads', () => {
    expect(source).not.toMatch(/import \{[^}]*\bPopover\b[^}]*\} from '@mantine\/core'/);
    expect(source).not.toMatch(/^import \{[^}]*\} from '\.\/CartFlyout'/m);
    expect(source).toMatch(/import\('\.\/CartFlyout'\)/);
  });

  // That the first click loads and opens it is e2e/checkout.spec.ts's (the flyout with several carts).
  it('keeps the flyout a labelled dialog with a focus trap', () => {
    expect(flyoutSource).toMatch(/<Popover[\s\S]*trapFocus/);
    expect(flyoutSource).toMatch(/data-testid="cart-flyout" aria-label="Warenkorb wählen" role="dialog"/);
  });
});
