import type { ReactNode } from 'react';
import { ActionIcon, Badge, Divider, Group, Indicator, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useNavigate } from 'react-router';
import { cartMemory } from '../../api/cart-memory';
import { useCurrentCart } from '../../api/carts';
import { formatBadgeCount, formatCurrency } from '../../ui/format';
import { CartIcon, CheckIcon } from '../../ui/icons';
import { flyoutCartName } from './flyout-name';
import classes from './CartWidget.module.css';

/**
 * The buyer's cart button in the header (spec §2): with one cart (or in IDS context) a direct link to the
 * cart, with several a flyout to pick one. The badge counts the current cart's items, '99+' above 99.
 */
export function CartWidget() {
  const navigate = useNavigate();
  const { carts, current, inIdsContext } = useCurrentCart();
  const [opened, flyout] = useDisclosure(false);
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

  return (
    <Popover
      opened={opened}
      onChange={(next) => (next ? flyout.open() : flyout.close())}
      position="bottom-end"
      width={300}
      shadow="md"
      withArrow
      trapFocus
    >
      <Popover.Target>
        {badge(
          <ActionIcon
            variant="light"
            size="lg"
            radius="xl"
            aria-label="Warenkorb"
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={flyout.toggle}
            data-testid="cart-widget"
          >
            <CartIcon />
          </ActionIcon>,
        )}
      </Popover.Target>
      <Popover.Dropdown p="xs" data-testid="cart-flyout" aria-label="Warenkorb wählen" role="dialog">
        <Text size="xs" c="dimmed" px="xs" pb={4}>
          Warenkorb wählen
        </Text>
        <Stack gap={2}>
          {list.map((cart) => {
            const isCurrent = cart.id === current?.id;
            return (
              <UnstyledButton
                key={cart.id}
                className={classes.option}
                data-current={isCurrent || undefined}
                aria-current={isCurrent || undefined}
                title={cart.name}
                onClick={() => {
                  cartMemory.set(String(cart.id));
                  flyout.close();
                  navigate(`/warenkorb/${cart.id}`);
                }}
              >
                <Group justify="space-between" wrap="nowrap" gap="xs">
                  <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                    <span className={classes.check}>{isCurrent && <CheckIcon size={14} />}</span>
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" fw={isCurrent ? 700 : 500} data-testid="flyout-cart-name">
                        {flyoutCartName(cart.name)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatCurrency(cart.totalNetValue)}
                      </Text>
                    </Stack>
                  </Group>
                  <Badge size="sm" variant={isCurrent ? 'filled' : 'light'} circle={cart.itemCount < 10}>
                    {formatBadgeCount(cart.itemCount)}
                  </Badge>
                </Group>
              </UnstyledButton>
            );
          })}
        </Stack>
        <Divider my="xs" />
        <UnstyledButton component={Link} to="/my-carts" className={classes.option} onClick={flyout.close}>
          <Text size="sm" c="brand.7" fw={600}>
            Meine Warenkörbe
          </Text>
        </UnstyledButton>
      </Popover.Dropdown>
    </Popover>
  );
}
