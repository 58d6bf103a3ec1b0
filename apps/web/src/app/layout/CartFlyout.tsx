import type { ReactElement } from 'react';
import { Badge, Divider, Group, Popover, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { cartMemory } from '../../api/cart-memory';
import type { useCurrentCart } from '../../api/carts';
import { formatBadgeCount, formatCurrency } from '../../ui/format';
import { CheckIcon } from '../../ui/icons';
import { flyoutCartName } from './flyout-name';
import classes from './CartWidget.module.css';

type CartListItem = NonNullable<ReturnType<typeof useCurrentCart>['carts']['data']>[number];

/** The flyout to pick one of several carts (loaded by CartWidget on the button's first use). */
export function CartFlyout({
  opened,
  onChange,
  target,
  list,
  currentId,
}: {
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** The header's cart button with its badge. */
  target: ReactElement;
  list: CartListItem[];
  currentId: number | undefined;
}) {
  const navigate = useNavigate();
  const close = () => onChange(false);
  return (
    <Popover opened={opened} onChange={onChange} position="bottom-end" width={300} shadow="md" withArrow trapFocus>
      <Popover.Target>{target}</Popover.Target>
      <Popover.Dropdown p="xs" data-testid="cart-flyout" aria-label="Warenkorb wählen" role="dialog">
        <Text size="xs" c="dimmed" px="xs" pb={4}>
          Warenkorb wählen
        </Text>
        <Stack gap={2}>
          {list.map((cart) => {
            const isCurrent = cart.id === currentId;
            return (
              <UnstyledButton
                key={cart.id}
                className={classes.option}
                data-current={isCurrent || undefined}
                aria-current={isCurrent || undefined}
                title={cart.name}
                onClick={() => {
                  cartMemory.set(String(cart.id));
                  close();
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
        <UnstyledButton component={Link} to="/my-carts" className={classes.option} onClick={close}>
          <Text size="sm" c="brand.7" fw={600}>
            Meine Warenkörbe
          </Text>
        </UnstyledButton>
      </Popover.Dropdown>
    </Popover>
  );
}
