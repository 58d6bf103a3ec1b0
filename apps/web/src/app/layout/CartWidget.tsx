import { useState, type ReactNode } from 'react';
import { ActionIcon, Indicator } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link } from 'react-router';
import { useCurrentCart } from '../../api/carts';
import { formatBadgeCount } from '../../ui/format';
import { CartIcon } from '../../ui/icons';

type FlyoutModule = typeof import('./CartFlyout');
let flyoutModule: FlyoutModule | null = null;
/** The flyout's code, loaded on the cart button's first use (not with every page of a buyer). */
const loadFlyout = () => import('./CartFlyout').then((m) => (flyoutModule = m));

/**
 * The buyer's cart button in the header (spec §2): with one cart (or in IDS context) a direct link to the
 * cart, with several a flyout to pick one. The badge counts the current cart's items, '99+' above 99.
 */
export function CartWidget() {
  const { carts, current, inIdsContext } = useCurrentCart();
  const [opened, flyout] = useDisclosure(false);
  const [Flyout, setFlyout] = useState<FlyoutModule['CartFlyout'] | null>(() => flyoutModule?.CartFlyout ?? null);
  const count = current?.itemCount ?? 0;
  const list = carts.data ?? [];
  const direct = inIdsContext || list.length <= 1;

  const badge = (children: ReactNode) => (
    <Indicator
      label={formatBadgeCount(count)}
      disabled={count === 0}
      size={18}
      offset={4}
      color="red"
      data-testid="cart-badge"
      zIndex={2}
    >
      {children}
    </Indicator>
  );

  if (direct) {
    return badge(
      <ActionIcon
        component={Link}
        to="/warenkorb"
        variant="light"
        size="lg"
        radius="xl"
        aria-label="Warenkorb"
        data-testid="cart-widget"
      >
        <CartIcon />
      </ActionIcon>,
    );
  }

  const button = (
    <ActionIcon
      variant="light"
      size="lg"
      radius="xl"
      aria-label="Warenkorb"
      aria-haspopup="dialog"
      aria-expanded={opened}
      onClick={() => {
        if (Flyout) {
          flyout.toggle();
          return;
        }
        // First use: the flyout's code (Popover, floating-ui, focus trap) comes now, then it opens (and its focus
        // trap takes the focus into it, as before).
        void loadFlyout().then((m) => {
          setFlyout(() => m.CartFlyout);
          flyout.open();
        });
      }}
      data-testid="cart-widget"
    >
      <CartIcon />
    </ActionIcon>
  );
  if (!Flyout) return badge(button);
  return (
    <Flyout
      opened={opened}
      onChange={(next) => (next ? flyout.open() : flyout.close())}
      target={badge(button)}
      list={list}
      currentId={current?.id}
    />
  );
}
