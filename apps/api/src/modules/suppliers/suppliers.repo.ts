import type { SupplierSettingsValues } from '@shk/contracts';
import type { Queryable as Client } from '../../db/queryable.ts';
import { SqlWhere } from '../../db/sql-params.ts';
import type { BusinessPartnerColumns, BusinessPartnerRow } from '../profile/index.ts';

/** Columns of the settings form, in the API's names; the audit trail compares exactly these. */
export interface SupplierRow {
  bp_number: string;
  name: string;
  supplier_status_id: number;
  required_onboarding_form: boolean;
  logo_file_name: string | null;
  logo_content_type: string | null;
  logo_version: number;
  has_logo: boolean;
  onboarding_form_template_file_name: string | null;
  has_template: boolean;
  contact_person_name: string | null;
  contact_person_phone: string | null;
  contact_person_email: string | null;
  gln: string | null;
  headquarter_gln: string | null;
  in_com_protocol_id: number;
  in_data_formats: number[];
  out_com_protocol_id: number;
  out_data_formats: number[];
  out_email_address: string | null;
  out_ftp_folder: string | null;
  workflow_id: number | null;
  out_as2_identifier: string | null;
  out_as2_url: string | null;
  show_supplier_note: boolean;
  supplier_note: string | null;
  delivery_cost: string;
  free_delivery_threshold: string;
  orders_summary_email: string | null;
  customer_onboarding_email: string | null;
  new_customer_onboarding_email: string | null;
  hide_gross_price: boolean;
  hide_additional_info: boolean;
  integration_status: number;
}

const settingsColumns = `s.bp_number, b.name, s.supplier_status_id, s.required_onboarding_form, s.logo_file_name, s.logo_content_type,
  s.logo_version, (s.logo IS NOT NULL OR s.logo_storage_key IS NOT NULL) AS has_logo, s.onboarding_form_template_file_name,
  (s.onboarding_form_template IS NOT NULL OR s.onboarding_form_template_storage_key IS NOT NULL) AS has_template, s.contact_person_name, s.contact_person_phone, s.contact_person_email,
  s.gln, s.headquarter_gln, s.in_com_protocol_id, s.in_data_formats, s.out_com_protocol_id, s.out_data_formats,
  s.out_email_address, s.out_ftp_folder, s.workflow_id, s.out_as2_identifier, s.out_as2_url, s.show_supplier_note,
  s.supplier_note, s.delivery_cost, s.free_delivery_threshold, s.orders_summary_email, s.customer_onboarding_email,
  s.new_customer_onboarding_email, s.hide_gross_price, s.hide_additional_info, s.integration_status`;

export async function findSupplier(c: Client, bp: string, forUpdate = false): Promise<SupplierRow | null> {
  const { rows } = await c.query<SupplierRow>(
    `SELECT ${settingsColumns} FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number
      WHERE s.bp_number = $1 ${forUpdate ? 'FOR UPDATE OF s' : ''}`,
    [bp],
  );
  return rows[0] ?? null;
}

export interface ListFilter {
  page: number;
  pageSize: number;
  name?: string;
  names?: string[];
  statusId?: number;
  sortBy: 'name' | 'bpNumber' | 'status';
  direction: 'asc' | 'desc';
}

/** Umlauts sort as their base letters (DIN 5007-1), matching the index of 0040. */
const nameKey = "lower(translate(b.name, 'ÄÖÜäöüß', 'AOUaous'))";
const sortExpressions = {
  name: (d: string) => `${nameKey} ${d}, s.bp_number ${d}`,
  bpNumber: (d: string) => `s.bp_number ${d}`,
  status: (d: string) => `s.supplier_status_id ${d}, ${nameKey} ${d}, s.bp_number ${d}`,
};

/**
 * One page and the total. Two statements instead of a window count: the page then walks the sort index
 * of 0040 and stops at LIMIT, the count touches only the filtered rows.
 */
export async function listSuppliers(c: Client, f: ListFilter) {
  const where = new SqlWhere().and('b.is_supplier');
  if (f.name) where.and('(lower(b.name) LIKE ? OR b.bp_number LIKE ?)', `%${escapeLike(f.name.toLowerCase())}%`);
  if (f.names?.length) where.and('b.name = ANY(?)', f.names);
  if (f.statusId) where.and('s.supplier_status_id = ?', f.statusId);
  const from = `FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number ${where.sql}`;
  const paging = where.page(f.page, f.pageSize);
  const [page, counted] = await Promise.all([
    c.query<{ bp_number: string; name: string; supplier_status_id: number; has_logo: boolean; logo_version: number }>(
      `SELECT s.bp_number, b.name, s.supplier_status_id, (s.logo IS NOT NULL OR s.logo_storage_key IS NOT NULL) AS has_logo, s.logo_version ${from}
        ORDER BY ${sortExpressions[f.sortBy](f.direction)} ${paging.sql}`,
      paging.values,
    ),
    c.query<{ n: string }>(`SELECT count(*) AS n ${from}`, where.values),
  ]);
  return { rows: page.rows, total: Number(counted.rows[0].n) };
}

const escapeLike = (v: string) => v.replace(/[\\%_]/g, (m) => `\\${m}`);

export async function findPartner(c: Client, bp: string) {
  const { rows } = await c.query<Pick<BusinessPartnerRow, 'bp_number' | 'name' | 'city'> & { has_supplier: boolean }>(
    `SELECT b.bp_number, b.name, b.city, (s.bp_number IS NOT NULL OR b.is_supplier) AS has_supplier
       FROM business_partners b LEFT JOIN suppliers s ON s.bp_number = b.bp_number WHERE b.bp_number = $1`,
    [bp],
  );
  return rows[0] ?? null;
}

/**
 * The product data integration counts as complete when the catalogue already holds the partner's
 * offers (nothing else in the portal reports it); the data source follows the organisation type.
 */
export async function insertSupplier(c: Client, bp: string) {
  await c.query(
    `INSERT INTO suppliers (bp_number, integration_status, product_data_source)
     SELECT b.bp_number,
            CASE WHEN EXISTS (SELECT 1 FROM product_offers o WHERE o.supplier_bp_number = b.bp_number) THEN 1 ELSE 2 END,
            b.organisation_type
       FROM business_partners b WHERE b.bp_number = $1`,
    [bp],
  );
  await c.query('UPDATE business_partners SET is_supplier = true WHERE bp_number = $1', [bp]);
}

export async function updateSettings(c: Client, bp: string, s: SupplierSettingsValues) {
  await c.query(
    `UPDATE suppliers SET supplier_status_id = $2, required_onboarding_form = $3, contact_person_name = $4,
        contact_person_phone = $5, contact_person_email = $6, gln = $7, headquarter_gln = $8, in_com_protocol_id = $9,
        in_data_formats = $10, out_com_protocol_id = $11, out_data_formats = $12, out_email_address = $13,
        out_ftp_folder = $14, workflow_id = $15, out_as2_identifier = $16, out_as2_url = $17, show_supplier_note = $18,
        supplier_note = $19, delivery_cost = $20, free_delivery_threshold = $21, orders_summary_email = $22,
        customer_onboarding_email = $23, new_customer_onboarding_email = $24, hide_gross_price = $25,
        hide_additional_info = $26, updated_at = now()
      WHERE bp_number = $1`,
    [
      bp,
      s.supplierStatusId,
      s.requiredOnboardingForm,
      s.contactPersonName,
      s.contactPersonPhone,
      s.contactPersonEmail,
      s.gln,
      s.headquarterGln,
      s.inboundInterface.communicationProtocolId,
      s.inboundInterface.dataFormats,
      s.outboundInterface.communicationProtocolId,
      s.outboundInterface.dataFormats,
      s.outboundInterface.emailAddress,
      s.outboundInterface.ftpFolder,
      s.workflowId ?? null,
      s.outboundInterface.as2Identifier,
      s.outboundInterface.as2Url,
      s.showSupplierNote,
      s.supplierNote,
      s.deliveryCost,
      s.freeDeliveryThreshold,
      s.ordersSummaryEmail,
      s.customerOnboardingEmail,
      s.newCustomerOnboardingEmail,
      s.hideGrossPrice,
      s.hideAdditionalInfo,
    ],
  );
}

/** A file of the supplier's in the file storage: its key, name and size. */
export interface StoredSupplierFile {
  storageKey: string;
  fileName: string;
  size: number;
}

/**
 * Sets (or, with null, removes) the supplier's logo; returns the storage key of the logo it replaced (null: none, or
 * one from before the file storage, whose bytes went with the row's old value). Call with the supplier row locked.
 */
export async function setLogo(
  c: Client,
  bp: string,
  file: (StoredSupplierFile & { contentType: string }) | null,
): Promise<string | null> {
  const { rows } = await c.query<{ old_key: string | null }>(
    `UPDATE suppliers s SET logo = NULL, logo_storage_key = $2, logo_size_bytes = $3, logo_file_name = $4,
        logo_content_type = $5, logo_version = s.logo_version + 1, updated_at = now()
       FROM (SELECT logo_storage_key AS old_key FROM suppliers WHERE bp_number = $1) o
      WHERE s.bp_number = $1 RETURNING o.old_key`,
    [bp, file?.storageKey ?? null, file?.size ?? null, file?.fileName ?? null, file?.contentType ?? null],
  );
  return rows[0]?.old_key ?? null;
}

/** Sets (or removes) the onboarding form template, like setLogo; returns the replaced template's storage key. */
export async function setTemplate(c: Client, bp: string, file: StoredSupplierFile | null): Promise<string | null> {
  const { rows } = await c.query<{ old_key: string | null }>(
    `UPDATE suppliers s SET onboarding_form_template = NULL, onboarding_form_template_storage_key = $2,
        onboarding_form_template_size_bytes = $3, onboarding_form_template_file_name = $4, updated_at = now()
       FROM (SELECT onboarding_form_template_storage_key AS old_key FROM suppliers WHERE bp_number = $1) o
      WHERE s.bp_number = $1 RETURNING o.old_key`,
    [bp, file?.storageKey ?? null, file?.size ?? null, file?.fileName ?? null],
  );
  return rows[0]?.old_key ?? null;
}

/** The logo: its storage key, or (stored before the file storage) its bytes; null when there is none. */
export async function readLogo(c: Client, bp: string) {
  const { rows } = await c.query<{
    logo: Buffer | null;
    logo_storage_key: string | null;
    logo_file_name: string | null;
    logo_content_type: string | null;
    logo_version: number;
  }>(
    `SELECT logo, logo_storage_key, logo_file_name, logo_content_type, logo_version FROM suppliers WHERE bp_number = $1`,
    [bp],
  );
  return rows[0]?.logo || rows[0]?.logo_storage_key ? rows[0] : null;
}

export async function insertChanges(
  c: Client,
  bp: string,
  who: { userId: string; label: string },
  changes: { field: string; oldValue: string | null; newValue: string | null }[],
) {
  if (!changes.length) return;
  await c.query(
    `INSERT INTO supplier_changes (bp_number, user_id, changed_by, field, old_value, new_value)
     SELECT $1, $2, $3, t.field, t.old_value, t.new_value
       FROM unnest($4::text[], $5::text[], $6::text[]) AS t(field, old_value, new_value)`,
    [
      bp,
      who.userId,
      who.label,
      changes.map((ch) => ch.field),
      changes.map((ch) => ch.oldValue),
      changes.map((ch) => ch.newValue),
    ],
  );
}

export async function listChanges(c: Client, bp: string) {
  const { rows } = await c.query<{
    id: string;
    changed_at: Date;
    changed_by: string;
    field: string;
    old_value: string | null;
    new_value: string | null;
  }>(
    `SELECT id, changed_at, changed_by, field, old_value, new_value FROM supplier_changes
      WHERE bp_number = $1 ORDER BY changed_at DESC, id DESC LIMIT 500`,
    [bp],
  );
  return rows;
}

/** Company data and the settings buyers see (cards, carts, product pages). */
export async function findCompanyInfo(c: Client, bp: string) {
  const { rows } = await c.query<
    BusinessPartnerColumns & {
      supplier_status_id: number;
      required_onboarding_form: boolean;
      has_template: boolean;
      has_logo: boolean;
      show_supplier_note: boolean;
      supplier_note: string | null;
      hide_gross_price: boolean;
      hide_additional_info: boolean;
      delivery_cost: string;
      free_delivery_threshold: string;
    }
  >(
    `SELECT b.bp_number, b.name, b.official_company_name, b.street, b.house_number, b.postal_code, b.city, b.country,
            b.email, b.phone_number, b.fax_number, b.website, b.tax_number, b.organisation_type,
            s.supplier_status_id, s.required_onboarding_form, (s.onboarding_form_template IS NOT NULL OR s.onboarding_form_template_storage_key IS NOT NULL) AS has_template,
            (s.logo IS NOT NULL OR s.logo_storage_key IS NOT NULL) AS has_logo, s.show_supplier_note, s.supplier_note, s.hide_gross_price,
            s.hide_additional_info, s.delivery_cost, s.free_delivery_threshold
       FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number WHERE s.bp_number = $1`,
    [bp],
  );
  return rows[0] ?? null;
}

export interface IntegrationRow {
  bp_number: string;
  integration_status: number;
  integration_provider: string | null;
  product_data_source: number;
  filter_value: string | null;
  brand_name: string | null;
}

export async function findIntegrations(c: Client, bps: string[]) {
  const { rows } = await c.query<IntegrationRow>(
    `SELECT bp_number, integration_status, integration_provider, product_data_source, filter_value, brand_name
       FROM suppliers WHERE bp_number = ANY($1) ORDER BY bp_number`,
    [bps],
  );
  return rows;
}

/** The onboarding form template: its storage key, or (stored before the file storage) its bytes; null: none. */
export async function readTemplate(c: Client, bp: string) {
  const { rows } = await c.query<{
    onboarding_form_template: Buffer | null;
    onboarding_form_template_storage_key: string | null;
    onboarding_form_template_file_name: string | null;
  }>(
    `SELECT onboarding_form_template, onboarding_form_template_storage_key, onboarding_form_template_file_name
       FROM suppliers WHERE bp_number = $1`,
    [bp],
  );
  return rows[0]?.onboarding_form_template || rows[0]?.onboarding_form_template_storage_key ? rows[0] : null;
}

/** Bytes of the supplier's stored logo or onboarding form template (0 when there is none). */
export async function storedBytes(c: Client, bp: string, file: 'logo' | 'onboarding_form_template'): Promise<number> {
  const { rows } = await c.query<{ n: number | null }>(
    `SELECT COALESCE(${file}_size_bytes, octet_length(${file})) AS n FROM suppliers WHERE bp_number = $1`,
    [bp],
  );
  return Number(rows[0]?.n ?? 0);
}
