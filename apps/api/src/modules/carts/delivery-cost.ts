import { round2 } from '@shk/contracts';

/**
 * Delivery cost of one supplier group: the supplier's deliveryCost unless the group's net value
 * reaches its freeDeliveryThreshold (then 0). A threshold of 0 means "never free" only when a
 * delivery cost is set; with cost 0 everything is free anyway.
 */
export function deliveryCostFor(netValue: number, settings: { deliveryCost: number; freeDeliveryThreshold: number }) {
  const threshold = settings.freeDeliveryThreshold;
  const free = threshold > 0 && netValue >= threshold;
  const deliveryCost = free ? 0 : settings.deliveryCost;
  const missingForFreeDelivery = threshold > 0 && !free ? round2(threshold - netValue) : 0;
  return { deliveryCost, freeDeliveryThreshold: threshold, missingForFreeDelivery };
}
