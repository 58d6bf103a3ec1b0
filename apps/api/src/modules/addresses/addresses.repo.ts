import type { DeliveryAddress, DeliveryAddressInput } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';

interface AddressRow {
  id: string | number;
  company_name: string;
  contact_person: string | null;
  additional_info: string | null;
  street_name: string;
  house_number: string;
  postal_code: string;
  city: string;
  phone_number: string | null;
  country_code: string;
  is_read_only: boolean;
}

function toAddress(r: AddressRow): DeliveryAddress {
  return {
    id: Number(r.id),
    companyName: r.company_name,
    contactPerson: r.contact_person,
    additionalInfo: r.additional_info,
    streetName: r.street_name,
    houseNumber: r.house_number,
    postalCode: r.postal_code,
    city: r.city,
    phoneNumber: r.phone_number,
    countryCode: r.country_code,
    isReadOnly: r.is_read_only,
  };
}

const inputValues = (a: DeliveryAddressInput) => [
  a.companyName,
  a.contactPerson || null,
  a.additionalInfo || null,
  a.streetName,
  a.houseNumber,
  a.postalCode,
  a.city,
  a.phoneNumber || null,
  a.countryCode,
];

/**
 * The partner's registered address is offered as a read-only delivery address; it is created
 * from the company data the first time the partner's addresses are read.
 */
export async function ensureRegisteredAddress(db: Queryable, bpNumber: string) {
  await db.query(
    `INSERT INTO delivery_addresses (bp_number, company_name, street_name, house_number, postal_code, city, phone_number, country_code, is_read_only)
     SELECT b.bp_number, COALESCE(b.official_company_name, b.name), COALESCE(b.street, ''), COALESCE(b.house_number, ''), COALESCE(b.postal_code, ''),
            COALESCE(b.city, ''), b.phone_number, COALESCE(b.country, 'DE'), true
       FROM business_partners b
      WHERE b.bp_number = $1 AND NOT EXISTS (SELECT 1 FROM delivery_addresses a WHERE a.bp_number = $1 AND a.is_read_only)`,
    [bpNumber],
  );
}

export async function listAddresses(db: Queryable, bpNumber: string): Promise<DeliveryAddress[]> {
  const { rows } = await db.query<AddressRow>(
    'SELECT * FROM delivery_addresses WHERE bp_number = $1 ORDER BY is_read_only DESC, company_name, id',
    [bpNumber],
  );
  return rows.map(toAddress);
}

export async function findAddress(db: Queryable, bpNumber: string, id: number): Promise<DeliveryAddress | null> {
  const { rows } = await db.query<AddressRow>('SELECT * FROM delivery_addresses WHERE id = $1 AND bp_number = $2', [
    id,
    bpNumber,
  ]);
  return rows[0] ? toAddress(rows[0]) : null;
}

export async function insertAddress(db: Queryable, bpNumber: string, a: DeliveryAddressInput) {
  const { rows } = await db.query<AddressRow>(
    `INSERT INTO delivery_addresses (bp_number, company_name, contact_person, additional_info, street_name, house_number, postal_code, city, phone_number, country_code)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING *`,
    [bpNumber, ...inputValues(a)],
  );
  return toAddress(rows[0]);
}

export async function updateAddress(db: Queryable, bpNumber: string, id: number, a: DeliveryAddressInput) {
  const { rows } = await db.query<AddressRow>(
    `UPDATE delivery_addresses SET company_name = $3, contact_person = $4, additional_info = $5, street_name = $6, house_number = $7,
            postal_code = $8, city = $9, phone_number = $10, country_code = $11, updated_at = now()
      WHERE id = $1 AND bp_number = $2 RETURNING *`,
    [id, bpNumber, ...inputValues(a)],
  );
  return toAddress(rows[0]);
}

export async function deleteAddress(db: Queryable, bpNumber: string, id: number) {
  await db.query('DELETE FROM delivery_addresses WHERE id = $1 AND bp_number = $2', [id, bpNumber]);
}
