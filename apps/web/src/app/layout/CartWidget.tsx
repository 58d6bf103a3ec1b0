import { ActionIcon, Indicator } from '@mantine/core';
import { Link } from 'react-router';
import { formatBadgeCount } from '../../ui/format';
import { CartIcon } from '../../ui/icons';
import { useCartItemCount } from './cart-item-count';

/** The buyer's cart button in the header; the badge shows '99+' above 99. */
export function CartWidget() {
  const count = useCartItemCount();
  return (
    <Indicator
      label={formatBadgeCount(count)}
      disabled={count === 0}
      size={18}
      offset={4}
      color="red"
      data-testid="cart-badge"
    >
      <ActionIcon component={Link} to="/warenkorb" variant="light" size="lg" radius="xl" aria-label="Warenkorb">
        <CartIcon />
      </ActionIcon>
    </Indicator>
  );
}
