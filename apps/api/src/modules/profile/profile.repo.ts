import type { Db } from '../../db/pool.ts';
import type { BusinessPartner } from '@shk/contracts';

/** A row of business_partners (the master data of every customer and supplier); other modules use this type. */
export interface BusinessPartnerRow {
  bp_number: string;
  name: string;
  official_company_name: string | null;
  street: string | null;
  house_number: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  email: string | null;
  phone_number: string | null;
  fax_number: string | null;
  website: string | null;
  tax_number: string | null;
  vat_id: string | null;
  organisation_type: number;
  is_supplier: boolean;
  created_at: Date;
}

/** The columns of a partner's master data that its API form (BusinessPartner) shows. */
export type BusinessPartnerColumns = Omit<BusinessPartnerRow, 'vat_id' | 'is_supplier' | 'created_at'>;

/** A partner's master data as the API shows it (profile, supplier company info). */
export function toBusinessPartner(r: BusinessPartnerColumns): BusinessPartner {
  return {
    businessPartnerNo: r.bp_number,
    name: r.name,
    officialCompanyName: r.official_company_name,
    street: r.street,
    houseNumber: r.house_number,
    postalCode: r.postal_code,
    city: r.city,
    country: r.country,
    contact: { eMail: r.email, phoneNumber: r.phone_number },
    faxNumber: r.fax_number,
    website: r.website,
    taxNumber: r.tax_number,
    organisationType: r.organisation_type,
  };
}

export async function findPartner(
  db: Db,
  bpNumber: string,
): Promise<(BusinessPartner & { isSupplier: boolean }) | null> {
  const { rows } = await db.$client.query<BusinessPartnerRow>('SELECT * FROM business_partners WHERE bp_number = $1', [
    bpNumber,
  ]);
  return rows[0] ? { ...toBusinessPartner(rows[0]), isSupplier: rows[0].is_supplier } : null;
}

export async function partnerNames(db: Db, bpNumbers: string[]): Promise<{ number: string; name: string }[]> {
  if (!bpNumbers.length) return [];
  const { rows } = await db.$client.query<{ bp_number: string; name: string }>(
    'SELECT bp_number, name FROM business_partners WHERE bp_number = ANY($1) ORDER BY bp_number',
    [bpNumbers],
  );
  return rows.map((r) => ({ number: r.bp_number, name: r.name }));
}

export async function setCurrentPartner(db: Db, userId: string, bpNumber: string) {
  await db.$client.query('UPDATE users SET current_bp_number = $2 WHERE id = $1', [userId, bpNumber]);
}

/** Whether a buyer is a customer of a supplier (a relation exists in `supplier_customers`). */
export async function isSupplierCustomer(db: Db, supplierBpNumber: string, buyerBpNumber: string): Promise<boolean> {
  const { rowCount } = await db.$client.query(
    'SELECT 1 FROM supplier_customers WHERE supplier_bp_number = $1 AND buyer_bp_number = $2',
    [supplierBpNumber, buyerBpNumber],
  );
  return (rowCount ?? 0) > 0;
}
