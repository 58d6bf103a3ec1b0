import {
  newCustomerCountry,
  type NewCustomerPartner,
  type SupplierCustomerRelation,
  type SupplierSummary,
} from '@shk/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/pool.ts';
import { SqlWhere } from '../../db/sql-params.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { BusinessPartnerRow } from '../profile/index.ts';

const COLUMNS = `
         r.id, r.relation_status_id, r.supplier_customer_number, r.shared_customer_id, r.comments, r.is_active,
         r.created_at, r.updated_at, r.supplier_bp_number, r.buyer_bp_number,
         s.name AS s_name, s.official_company_name AS s_official, s.street AS s_street, s.house_number AS s_house,
         s.postal_code AS s_zip, s.city AS s_city, s.country AS s_country, s.website AS s_website, s.organisation_type AS s_org,
         sup.supplier_status_id, sup.required_onboarding_form, sup.integration_status, sup.integration_provider,
         sup.product_data_source, sup.filter_value, sup.brand_name,
         b.name AS b_name, b.official_company_name AS b_official, b.email AS b_email, b.phone_number AS b_phone,
         b.fax_number AS b_fax, b.website AS b_website, b.tax_number AS b_tax, b.vat_id AS b_vat,
         r.new_customer_partner, r.contact_name, r.contact_email, r.contact_phone, r.contact_message`;
/** A relation with its supplier and its buyer (the tables every relation query filters on). */
const FROM = `
    FROM supplier_customers r
    JOIN business_partners s ON s.bp_number = r.supplier_bp_number
    JOIN suppliers sup ON sup.bp_number = r.supplier_bp_number
    JOIN business_partners b ON b.bp_number = r.buyer_bp_number`;
const SELECT = `SELECT ${COLUMNS} ${FROM}`;
/** SELECT with the number of all matching rows on each row (a window count, taken before LIMIT). */
const SELECT_COUNTED = `SELECT ${COLUMNS}, count(*) OVER ()::int AS total_count ${FROM}`;

type Rel = SupplierCustomerRelation;
type Sup = Rel['supplier'];
type Buy = Rel['buyer'];
type Itek = Rel['supplierItekIntegrationInfo'];

/** One row of SELECT: each column typed as the field of the relation it fills. */
interface RelationRow {
  id: number | string;
  relation_status_id: Rel['relationStatusId'];
  supplier_customer_number: Rel['supplierCustomerNumber'];
  shared_customer_id: Rel['sharedCustomerId'];
  comments: Rel['comments'];
  is_active: Rel['isActive'];
  created_at: Date | string;
  updated_at: Date | string;
  supplier_bp_number: Sup['bpNumber'];
  buyer_bp_number: Buy['bpNumber'];
  s_name: Sup['name'];
  s_official: Sup['officialCompanyName'];
  s_street: Sup['address']['street'];
  s_house: Sup['address']['houseNumber'];
  s_zip: Sup['address']['postalCode'];
  s_city: Sup['address']['city'];
  s_country: Sup['address']['country'];
  s_website: Sup['website'];
  s_org: Sup['organisationType'];
  supplier_status_id: Sup['supplierStatusId'];
  required_onboarding_form: Sup['requiredOnboardingForm'];
  integration_status: Itek['integrationStatus'];
  integration_provider: Itek['provider'];
  product_data_source: Itek['productDataSource'];
  filter_value: Itek['filterValue'];
  brand_name: Itek['brandName'];
  b_name: Buy['name'];
  b_official: Buy['officialCompanyName'];
  b_email: Buy['email'];
  b_phone: Buy['phoneNumber'];
  b_fax: Buy['faxNumber'];
  b_website: Buy['website'];
  b_tax: Buy['taxNumber'];
  b_vat: Buy['vatId'];
  new_customer_partner: Rel['newCustomerPartner'];
  contact_name: string | null;
  contact_email: string | null;
  contact_phone: string | null;
  contact_message: string | null;
}

/** The company data of a new-customer request with its country (German addresses only, see newCustomerCountry). */
function newCustomerPartnerOf(r: RelationRow): Rel['newCustomerPartner'] {
  return r.new_customer_partner && { ...r.new_customer_partner, country: newCustomerCountry };
}

/** The contact person of a new-customer request (only with its company data). */
function newCustomerContactOf(r: RelationRow): Rel['newCustomerContact'] {
  if (!r.new_customer_partner) return null;
  return { name: r.contact_name, email: r.contact_email, phone: r.contact_phone, message: r.contact_message };
}

function toRelation(r: RelationRow): SupplierCustomerRelation {
  return {
    id: Number(r.id),
    supplier: {
      name: r.s_name,
      bpNumber: r.supplier_bp_number,
      officialCompanyName: r.s_official,
      address: {
        street: r.s_street,
        houseNumber: r.s_house,
        postalCode: r.s_zip,
        city: r.s_city,
        country: r.s_country,
      },
      website: r.s_website,
      supplierStatusId: r.supplier_status_id,
      requiredOnboardingForm: r.required_onboarding_form,
      organisationType: r.s_org,
    },
    buyer: {
      name: r.b_name,
      officialCompanyName: r.b_official,
      bpNumber: r.buyer_bp_number,
      email: r.b_email,
      phoneNumber: r.b_phone,
      faxNumber: r.b_fax,
      website: r.b_website,
      taxNumber: r.b_tax,
      vatId: r.b_vat,
    },
    relationStatusId: r.relation_status_id,
    supplierCustomerNumber: r.supplier_customer_number,
    sharedCustomerId: r.shared_customer_id,
    comments: r.comments,
    isActive: r.is_active,
    dateCreated: new Date(r.created_at).toISOString(),
    dateModified: new Date(r.updated_at).toISOString(),
    supplierItekIntegrationInfo: {
      supplierBusinessPartnerNo: r.supplier_bp_number,
      integrationStatus: r.integration_status,
      provider: r.integration_provider,
      productDataSource: r.product_data_source,
      filterValue: r.filter_value,
      brandName: r.brand_name,
    },
    newCustomerPartner: newCustomerPartnerOf(r),
    newCustomerContact: newCustomerContactOf(r),
  };
}

export interface RelationQuery {
  buyerBpNumber?: string;
  supplierBpNumber?: string;
  statusIds: readonly number[];
  supplierStatusIds?: readonly number[];
  /** Case-insensitive substring of the other side's name, its partner number or the customer number. */
  search?: string;
  searchSide: 'supplier' | 'buyer' | 'both';
  page: number;
  pageSize: number;
  order: 'supplier' | 'buyer' | 'status-then-supplier';
}

export async function listRelations(db: Db, q: RelationQuery) {
  const where = new SqlWhere().and('r.relation_status_id = ANY(?)', q.statusIds);
  if (q.buyerBpNumber) where.and('r.buyer_bp_number = ?', q.buyerBpNumber);
  if (q.supplierBpNumber) where.and('r.supplier_bp_number = ?', q.supplierBpNumber);
  if (q.supplierStatusIds?.length) where.and('sup.supplier_status_id = ANY(?)', q.supplierStatusIds);
  if (q.search) {
    const pattern = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const sides = {
      supplier: '(s.name ILIKE ? OR r.supplier_bp_number ILIKE ?)',
      buyer: '(b.name ILIKE ? OR r.buyer_bp_number ILIKE ? OR r.supplier_customer_number ILIKE ?)',
      both: '(s.name ILIKE ? OR b.name ILIKE ? OR r.supplier_bp_number ILIKE ? OR r.buyer_bp_number ILIKE ? OR r.supplier_customer_number ILIKE ?)',
    };
    where.and(sides[q.searchSide], pattern);
  }
  const order = {
    supplier: 's.name, r.id',
    buyer: 'b.name, r.id',
    'status-then-supplier': 'r.relation_status_id, s.name, r.id',
  }[q.order];
  // The page and the number of all matches in one statement (the window count is taken before LIMIT); only a page
  // past the end, which has no row to carry it, needs the count apart.
  const page = where.page(q.page, q.pageSize);
  const { rows } = await db.$client.query<RelationRow & { total_count: number }>(
    `${SELECT_COUNTED} ${where.sql}
      ORDER BY ${order} ${page.sql}`,
    page.values,
  );
  const totalCount = rows.length
    ? rows[0].total_count
    : (await db.$client.query<{ n: number }>(`SELECT count(*)::int AS n ${FROM} ${where.sql}`, where.values)).rows[0].n;
  return {
    items: rows.map(toRelation),
    currentPage: q.page,
    pageSize: q.pageSize,
    totalCount,
    totalPages: Math.max(1, Math.ceil(totalCount / q.pageSize)),
  };
}

export async function findRelation(
  db: Queryable | Db,
  id: number,
  lock = false,
): Promise<SupplierCustomerRelation | null> {
  const client = '$client' in db ? db.$client : db;
  const { rows } = await client.query(`${SELECT} WHERE r.id = $1${lock ? ' FOR UPDATE OF r' : ''}`, [id]);
  return rows[0] ? toRelation(rows[0]) : null;
}

export async function findRelationByPair(
  client: Queryable,
  buyerBpNumber: string,
  supplierBpNumber: string,
  lock = false,
) {
  const { rows } = await client.query(
    `${SELECT} WHERE r.buyer_bp_number = $1 AND r.supplier_bp_number = $2${lock ? ' FOR UPDATE OF r' : ''}`,
    [buyerBpNumber, supplierBpNumber],
  );
  return rows[0] ? toRelation(rows[0]) : null;
}

export async function recordStatusChange(
  client: Queryable,
  relationId: number,
  userId: string,
  oldStatus: number | null,
  newStatus: number,
  comments: string | null,
) {
  await client.query(
    'INSERT INTO supplier_customer_status_changes (supplier_customer_id, changed_by, old_status_id, new_status_id, comments) VALUES ($1,$2,$3,$4,$5)',
    [relationId, userId, oldStatus, newStatus, comments],
  );
}

export async function listStatusChanges(db: Db, relationId: number) {
  const { rows } = await db.$client.query(
    `SELECT c.id, c.old_status_id, c.new_status_id, c.comments, c.changed_at, u.email, u.first_name, u.last_name
       FROM supplier_customer_status_changes c LEFT JOIN users u ON u.id = c.changed_by
      WHERE c.supplier_customer_id = $1 ORDER BY c.changed_at, c.id`,
    [relationId],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    oldStatusId: r.old_status_id,
    newStatusId: r.new_status_id,
    comments: r.comments,
    changedAt: new Date(r.changed_at).toISOString(),
    changedBy: r.email ? { email: r.email, firstName: r.first_name, lastName: r.last_name } : null,
  }));
}

/** Active suppliers (not status 2) the buyer has no relation with yet, by name. */
export async function suppliersWithoutRelation(
  db: Db,
  buyerBpNumber: string,
): Promise<z.infer<typeof SupplierSummary>[]> {
  const { rows } = await db.$client.query<
    Pick<
      BusinessPartnerRow,
      'bp_number' | 'name' | 'official_company_name' | 'city' | 'website' | 'organisation_type'
    > & {
      supplier_status_id: number;
      required_onboarding_form: boolean;
    }
  >(
    `SELECT b.bp_number, b.name, b.official_company_name, b.city, b.website, b.organisation_type, s.supplier_status_id, s.required_onboarding_form
     FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number
    WHERE b.is_supplier AND s.supplier_status_id <> 2
      AND NOT EXISTS (SELECT 1 FROM supplier_customers r WHERE r.supplier_bp_number = s.bp_number AND r.buyer_bp_number = $1)
    ORDER BY b.name`,
    [buyerBpNumber],
  );
  return rows.map((r) => ({
    bpNumber: r.bp_number,
    name: r.name,
    officialCompanyName: r.official_company_name,
    city: r.city,
    website: r.website,
    supplierStatusId: r.supplier_status_id,
    organisationType: r.organisation_type,
    requiredOnboardingForm: r.required_onboarding_form,
  }));
}

/** A supplier's status, or null when the business partner is not a supplier. */
export async function findSupplierStatus(client: Queryable, supplierBpNumber: string): Promise<number | null> {
  const { rows } = await client.query<{ supplier_status_id: number }>(
    `SELECT s.supplier_status_id FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number WHERE s.bp_number = $1 AND b.is_supplier`,
    [supplierBpNumber],
  );
  return rows[0]?.supplier_status_id ?? null;
}

export interface RelationContact {
  name: string | null;
  email: string | null;
  phone: string | null;
  message: string | null;
  /** The company data confirmed for a request without customer number. */
  partner: NewCustomerPartner | null;
}

/** A buyer asks again: new status and contact, comments cleared, the customer number kept unless a new one is given. */
export async function reopenRelation(
  client: Queryable,
  id: number,
  status: number,
  customerNumber: string | null,
  contact: RelationContact,
): Promise<void> {
  await client.query(
    `UPDATE supplier_customers SET relation_status_id = $2, supplier_customer_number = COALESCE($3, supplier_customer_number), comments = NULL,
       contact_name = $4, contact_email = $5, contact_phone = $6, contact_message = $7, new_customer_partner = $8,
       updated_at = now() WHERE id = $1`,
    [id, status, customerNumber, contact.name, contact.email, contact.phone, contact.message, contact.partner],
  );
}

/** A new relation; returns its id. */
export async function insertRelation(
  client: Queryable,
  relation: {
    supplierBpNumber: string;
    buyerBpNumber: string;
    status: number;
    customerNumber: string | null;
    contact: RelationContact;
  },
): Promise<number> {
  const { contact } = relation;
  const { rows } = await client.query<{ id: number }>(
    `INSERT INTO supplier_customers (supplier_bp_number, buyer_bp_number, relation_status_id, supplier_customer_number, contact_name, contact_email, contact_phone, contact_message, new_customer_partner)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING id`,
    [
      relation.supplierBpNumber,
      relation.buyerBpNumber,
      relation.status,
      relation.customerNumber,
      contact.name,
      contact.email,
      contact.phone,
      contact.message,
      contact.partner,
    ],
  );
  return Number(rows[0].id);
}

/**
 * Status, comments (only when `comments` is not undefined; empty clears), customer number and activity
 * (null keeps the stored value).
 */
export async function updateRelation(
  client: Queryable,
  id: number,
  change: {
    status: number;
    comments: string | null | undefined;
    customerNumber: string | null;
    isActive: boolean | null;
  },
): Promise<void> {
  await client.query(
    `UPDATE supplier_customers SET relation_status_id = $2,
        comments = CASE WHEN $3::boolean THEN $4 ELSE comments END,
        supplier_customer_number = COALESCE($5, supplier_customer_number),
        is_active = COALESCE($6, is_active), updated_at = now()
      WHERE id = $1`,
    [id, change.status, change.comments !== undefined, change.comments ?? null, change.customerNumber, change.isActive],
  );
}

export async function setRelationCustomerNumber(
  client: Queryable,
  id: number,
  customerNumber: string,
  status: number,
): Promise<void> {
  await client.query(
    'UPDATE supplier_customers SET supplier_customer_number = $2, relation_status_id = $3, updated_at = now() WHERE id = $1',
    [id, customerNumber, status],
  );
}

/** The supplier's onboarding mail addresses and its general address (the fallback). */
export async function findSupplierMailAddresses(
  client: Queryable,
  supplierBpNumber: string,
): Promise<
  | { customer_onboarding_email: string | null; new_customer_onboarding_email: string | null; email: string | null }
  | undefined
> {
  const { rows } = await client.query(
    `SELECT s.customer_onboarding_email, s.new_customer_onboarding_email, b.email
       FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number WHERE s.bp_number = $1`,
    [supplierBpNumber],
  );
  return rows[0];
}

/** The buyer's relations with the given suppliers (status and activity). */
export async function findRelationStates(
  client: Queryable,
  buyerBpNumber: string,
  supplierBpNumbers: string[],
): Promise<{ supplier_bp_number: string; relation_status_id: number; is_active: boolean }[]> {
  const { rows } = await client.query({
    name: 'relation-states', // prepared once per connection: read with every offer snapshot (cart, checkout)
    text: 'SELECT supplier_bp_number, relation_status_id, is_active FROM supplier_customers WHERE buyer_bp_number = $1 AND supplier_bp_number = ANY($2)',
    values: [buyerBpNumber, supplierBpNumbers],
  });
  return rows;
}
