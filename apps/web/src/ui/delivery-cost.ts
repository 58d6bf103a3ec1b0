import { cartMessages } from '@shk/contracts';
import { formatCurrency } from './format';

/** Delivery cost as the spec shows it (cart summary, order detail): 'zzgl. 9,90 € Lieferkosten'; 0 is '0,00 € Lieferkosten'. */
export const deliveryCostText = (amount: number) => (amount > 0 ? cartMessages.deliveryCostExtra(formatCurrency(amount)) : cartMessages.zeroDeliveryCost);
