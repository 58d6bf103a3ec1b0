import { customerOrderStatusLabels, supplierOrderStatusLabels } from '@shk/contracts';
import type { OrderType } from '../../api/orders';

export const customerStatusLabel = (id: number) => customerOrderStatusLabels[id] ?? String(id);
export const supplierStatusLabel = (id: number) => supplierOrderStatusLabels[id] ?? String(id);

/** Badge colour per status id (same numbering for customer and supplier orders: 4 confirmed, 6 cancelled …). */
export function statusColor(id: number, type: OrderType): string {
  if (type === 'supplier' && id === 3) return 'red';
  switch (id) {
    case 4:
      return 'green';
    case 5:
      return 'teal';
    case 6:
      return 'red';
    case 3:
      return type === 'customer' ? 'yellow' : 'red';
    case 2:
      return 'blue';
    default:
      return 'gray';
  }
}

export { deliveryCostAmountText, deliveryCostText } from '../../ui/delivery-cost';

export const orderDetailUrl = (id: string, orderType: OrderType, thankYou = false) => {
  const params = new URLSearchParams({ id, orderType });
  if (thankYou) params.set('danke', 'true');
  return `/bestellungen/bestellung?${params.toString()}`;
};

/** Badge styles that let a long status wrap instead of being cut (narrow screens). */
export const wrappingBadgeStyles = {
  root: { height: 'auto', minHeight: 20, paddingBlock: 2 },
  label: { whiteSpace: 'normal' as const, overflow: 'visible' },
};
