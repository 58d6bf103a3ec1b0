import { cartMessages } from '@shk/contracts';
import { formatCurrency } from './format';

/** Delivery cost as the spec shows it (cart summary, order detail): 'zzgl. 9,90 € Lieferkosten'; 0 is '0,00 € Lieferkosten'. */
export const deliveryCostText = (amount: number) =>
  amount > 0 ? cartMessages.deliveryCostExtra(formatCurrency(amount)) : cartMessages.zeroDeliveryCost;

/** The amount alone for a row already labelled 'Lieferkosten': 'zzgl. 9,90 €'; 0 is '0,00 €'. */
export const deliveryCostAmountText = (amount: number) =>
  amount > 0 ? cartMessages.deliveryCostExtraAmount(formatCurrency(amount)) : formatCurrency(0);
