import { isStaff, Role } from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { Db } from '../../db/pool.ts';

/**
 * Whether the caller may read a business partner's company data: own partners, every supplier
 * (buyers look suppliers up), all partners for staff, and for sellers the buyers that have a
 * relation with their supplier.
 */
export async function canSeePartner(
  db: Db,
  caller: Caller,
  partner: { businessPartnerNo: string; isSupplier: boolean },
): Promise<boolean> {
  if (isStaff(caller.role)) return true;
  if (caller.partners.includes(partner.businessPartnerNo)) return true;
  if (partner.isSupplier && caller.role !== Role.None) return true;
  if (caller.role === Role.Seller && caller.bpNumber) {
    const { rowCount } = await db.$client.query(
      'SELECT 1 FROM supplier_customers WHERE supplier_bp_number = $1 AND buyer_bp_number = $2',
      [caller.bpNumber, partner.businessPartnerNo],
    );
    return (rowCount ?? 0) > 0;
  }
  return false;
}
