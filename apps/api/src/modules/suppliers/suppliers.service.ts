import {
  messages,
  supplierMessages,
  supplierStateIssues,
  SupplierStatus,
  type SupplierSettings,
  type SupplierSettingsValues,
} from '@shk/contracts';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/pool.ts';
import type { Queryable as Client } from '../../db/queryable.ts';
import { inTransaction } from '../../db/pool.ts';
import { HttpProblem, notFound, validationProblem } from '../../http/problem.ts';
import type { Caller } from '../../http/auth.ts';
import * as repo from './suppliers.repo.ts';
import type { SupplierRow } from './suppliers.repo.ts';
import { checkLogo, checkTemplateAt, renderLogo, type LogoSize } from './supplier-files.ts';
import { readSpooled, spooledStream, type SpooledFile } from '../../lib/uploads/spooled-upload.ts';
import { assertStorageQuota } from '../../lib/uploads/storage-quota.ts';
import type { FileStorage } from '../storage/index.ts';

/** Where supplier logos and onboarding form templates are stored (one file per upload, never changed). */
const SUPPLIER_FILES_PREFIX = 'files/supplier-files/';

async function buffered(body: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(body)) return body;
  const parts: Buffer[] = [];
  for await (const part of body) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export const logoUrl = (bp: string, version: number, size: LogoSize = 160) =>
  `/v1/Suppliers/${encodeURIComponent(bp)}/logo?size=${size}&v=${version}`;

export function toSettings(r: SupplierRow): SupplierSettings {
  return {
    supplierBusinessPartnerNo: r.bp_number,
    name: r.name,
    supplierStatusId: r.supplier_status_id,
    requiredOnboardingForm: r.required_onboarding_form,
    logoFileName: r.has_logo ? r.logo_file_name : null,
    logoUrl: r.has_logo ? logoUrl(r.bp_number, r.logo_version) : null,
    onboardingFormTemplateFileName: r.has_template ? r.onboarding_form_template_file_name : null,
    contactPersonName: r.contact_person_name,
    contactPersonPhone: r.contact_person_phone,
    contactPersonEmail: r.contact_person_email,
    gln: r.gln,
    headquarterGln: r.headquarter_gln,
    inboundInterface: { communicationProtocolId: r.in_com_protocol_id, dataFormats: r.in_data_formats },
    outboundInterface: {
      communicationProtocolId: r.out_com_protocol_id,
      dataFormats: r.out_data_formats,
      emailAddress: r.out_email_address,
      ftpFolder: r.out_ftp_folder,
      as2Identifier: r.out_as2_identifier,
      as2Url: r.out_as2_url,
    },
    workflowId: r.workflow_id,
    showSupplierNote: r.show_supplier_note,
    supplierNote: r.supplier_note,
    deliveryCost: Number(r.delivery_cost),
    freeDeliveryThreshold: Number(r.free_delivery_threshold),
    ordersSummaryEmail: r.orders_summary_email,
    customerOnboardingEmail: r.customer_onboarding_email,
    newCustomerOnboardingEmail: r.new_customer_onboarding_email,
    hideGrossPrice: r.hide_gross_price,
    hideAdditionalInfo: r.hide_additional_info,
    integrationComplete: r.integration_status === 1,
  };
}

/** The audited fields: every scalar and list of the form, flattened to 'outboundInterface.emailAddress' etc. */
function flatten(s: SupplierSettings): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const put = (key: string, v: unknown) => {
    out[key] = v === null || v === undefined || v === '' ? null : Array.isArray(v) ? v.join(',') : String(v);
  };
  for (const [k, v] of Object.entries(s)) {
    if (['name', 'logoUrl', 'integrationComplete', 'supplierBusinessPartnerNo'].includes(k)) continue;
    if (v && typeof v === 'object' && !Array.isArray(v))
      for (const [k2, v2] of Object.entries(v)) put(`${k}.${k2}`, v2);
    else put(k, v);
  }
  return out;
}

export function diff(before: SupplierSettings, after: SupplierSettings) {
  const a = flatten(before);
  const b = flatten(after);
  return Object.keys(b)
    .filter((k) => a[k] !== b[k])
    .map((field) => ({ field, oldValue: a[field] ?? null, newValue: b[field] ?? null }));
}

const who = (caller: Caller) => ({
  userId: caller.userId,
  label: `${caller.firstName} ${caller.lastName}`.trim()
    ? `${caller.firstName} ${caller.lastName} (${caller.email})`
    : caller.email,
});

/** Resized logos by bp, version and size; small and bounded (logos are ≤ 1 MB, the copies a few KB). */
const logoCache = new Map<string, { body: Buffer; contentType: string }>();
const LOGO_CACHE_MAX = 2000;

export class SuppliersService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
  ) {}

  list(filter: repo.ListFilter) {
    return repo.listSuppliers(this.db.$client, filter).then(({ rows, total }) => ({
      items: rows.map((r) => ({
        supplierBusinessPartnerNo: r.bp_number,
        name: r.name,
        supplierStatusId: r.supplier_status_id,
        logoUrl: r.has_logo ? logoUrl(r.bp_number, r.logo_version) : null,
      })),
      currentPage: filter.page,
      pageSize: filter.pageSize,
      totalCount: total,
      totalPages: Math.ceil(total / filter.pageSize),
    }));
  }

  async get(bp: string): Promise<SupplierSettings> {
    const row = await repo.findSupplier(this.db.$client, bp);
    if (!row) throw notFound(supplierMessages.reloadAndRetry);
    return toSettings(row);
  }

  /** The add flow's check against the business-partner master data (§2, §8). */
  async candidate(bp: string) {
    const partner = await repo.findPartner(this.db.$client, bp);
    if (!partner)
      throw new HttpProblem(404, supplierMessages.partnerNotFound, { type: 'not-found', detail: messages.checkInput });
    if (partner.has_supplier)
      throw new HttpProblem(409, supplierMessages.partnerExists, {
        type: 'entity-already-exists',
        detail: messages.checkInput,
      });
    return { businessPartnerNo: partner.bp_number, name: partner.name, city: partner.city };
  }

  /** A new supplier: NonActive with the defaults, then the submitted settings, audited as one change set. */
  async create(caller: Caller, input: SupplierSettingsValues): Promise<SupplierSettings> {
    const bp = input.supplierBusinessPartnerNo;
    await this.candidate(bp);
    return inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      await repo.insertSupplier(c, bp).catch((error: { code?: string }) => {
        if (error.code === '23505')
          throw new HttpProblem(409, supplierMessages.partnerExists, { detail: messages.checkInput });
        throw error;
      });
      const created = (await repo.findSupplier(c, bp, true))!;
      const before = toSettings(created);
      this.checkState(input, created);
      await repo.updateSettings(c, bp, input);
      const after = toSettings((await repo.findSupplier(c, bp))!);
      await repo.insertChanges(c, bp, who(caller), [
        { field: 'supplier', oldValue: null, newValue: 'angelegt' },
        ...diff(before, after),
      ]);
      return after;
    });
  }

  async update(caller: Caller, input: SupplierSettingsValues): Promise<SupplierSettings> {
    const bp = input.supplierBusinessPartnerNo;
    return inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      const current = await repo.findSupplier(c, bp, true);
      if (!current) throw notFound(supplierMessages.reloadAndRetry);
      this.checkState(input, current);
      await repo.updateSettings(c, bp, input);
      const after = toSettings((await repo.findSupplier(c, bp))!);
      await repo.insertChanges(c, bp, who(caller), diff(toSettings(current), after));
      return after;
    });
  }

  private checkState(input: SupplierSettingsValues, current: SupplierRow) {
    const issues = supplierStateIssues(input, {
      currentStatusId: current.supplier_status_id,
      hasLogo: current.has_logo,
      hasTemplate: current.has_template,
      integrationComplete: current.integration_status === 1,
    });
    if (issues.length)
      throw validationProblem(
        issues.map((i) => ({ field: `body.${i.field}`, message: i.message })),
        issues.length === 1 ? issues[0].message : supplierMessages.updateInvalid,
      );
  }

  async uploadLogo(caller: Caller, bp: string, upload: SpooledFile) {
    // A logo is read whole: its checks parse the SVG and rasterise it (sharp), and it is at most 1 MB.
    const file = await checkLogo(upload.name, await readSpooled(upload));
    return this.storeThenRecord(file.content, async (tx, stored) => {
      const current = await repo.findSupplier(tx, bp, true);
      if (!current) throw notFound(supplierMessages.reloadAndRetry);
      // The new file replaces the stored one: only the difference counts against the partner's quota.
      await assertStorageQuota(tx, bp, stored.size - (await repo.storedBytes(tx, bp, 'logo')));
      const replaced = await repo.setLogo(tx, bp, {
        ...stored,
        fileName: file.fileName,
        contentType: file.contentType,
      });
      await repo.insertChanges(tx, bp, who(caller), [
        { field: 'logo', oldValue: current.has_logo ? current.logo_file_name : null, newValue: file.fileName },
      ]);
      return { result: toSettings((await repo.findSupplier(tx, bp))!), replaced };
    });
  }

  /** Removing the logo of an active supplier would break the rule 'Active needs a logo'. */
  async deleteLogo(caller: Caller, bp: string) {
    const removed = await inTransaction(this.db, async (tx) => {
      const current = await repo.findSupplier(tx.$client, bp, true);
      if (!current) throw notFound(supplierMessages.reloadAndRetry);
      if (!current.has_logo) throw notFound('Kein Logo vorhanden');
      if (current.supplier_status_id === SupplierStatus.Active)
        throw new HttpProblem(400, supplierMessages.activeNeedsLogo, { type: 'activeNeedsLogo' });
      const replaced = await repo.setLogo(tx.$client, bp, null);
      await repo.insertChanges(tx.$client, bp, who(caller), [
        { field: 'logo', oldValue: current.logo_file_name, newValue: null },
      ]);
      return replaced;
    });
    if (removed) await this.storage.delete(removed);
  }

  async uploadTemplate(caller: Caller, bp: string, upload: SpooledFile) {
    const file = await checkTemplateAt(upload.name, upload);
    return this.storeThenRecord(spooledStream(upload), async (tx, stored) => {
      const current = await repo.findSupplier(tx, bp, true);
      if (!current) throw notFound(supplierMessages.reloadAndRetry);
      // The new file replaces the stored one: only the difference counts against the partner's quota.
      await assertStorageQuota(tx, bp, stored.size - (await repo.storedBytes(tx, bp, 'onboarding_form_template')));
      const replaced = await repo.setTemplate(tx, bp, { ...stored, fileName: file.fileName });
      await repo.insertChanges(tx, bp, who(caller), [
        {
          field: 'onboardingFormTemplate',
          oldValue: current.has_template ? current.onboarding_form_template_file_name : null,
          newValue: file.fileName,
        },
      ]);
      return { result: toSettings((await repo.findSupplier(tx, bp))!), replaced };
    });
  }

  /** A required onboarding form needs its template (§5): deleting it is refused while required. */
  async deleteTemplate(caller: Caller, bp: string) {
    const removed = await inTransaction(this.db, async (tx) => {
      const current = await repo.findSupplier(tx.$client, bp, true);
      if (!current) throw notFound(supplierMessages.reloadAndRetry);
      if (!current.has_template) throw notFound('Kein Neukundenformular vorhanden');
      if (current.required_onboarding_form)
        throw new HttpProblem(400, supplierMessages.templateRequired, { type: 'templateRequired' });
      const replaced = await repo.setTemplate(tx.$client, bp, null);
      await repo.insertChanges(tx.$client, bp, who(caller), [
        { field: 'onboardingFormTemplate', oldValue: current.onboarding_form_template_file_name, newValue: null },
      ]);
      return replaced;
    });
    if (removed) await this.storage.delete(removed);
  }

  /**
   * Writes a supplier file into the file storage (any node serves it), outside the transaction: a write to the
   * postgres backend takes connections of its own. `record` names it in the supplier's row; refused there, the file
   * is removed again. The file it replaced goes once the change is committed.
   */
  private async storeThenRecord<T>(
    content: Buffer | Readable,
    record: (
      tx: Client,
      stored: { storageKey: string; size: number },
    ) => Promise<{ result: T; replaced: string | null }>,
  ): Promise<T> {
    const storageKey = `${SUPPLIER_FILES_PREFIX}${randomUUID()}`;
    const { size } = await this.storage.put(storageKey, content);
    let outcome: { result: T; replaced: string | null };
    try {
      outcome = await inTransaction(this.db, (tx) => record(tx.$client, { storageKey, size }));
    } catch (error) {
      await this.storage.delete(storageKey).catch(() => {});
      throw error;
    }
    if (outcome.replaced) await this.storage.delete(outcome.replaced);
    return outcome.result;
  }

  async logo(bp: string, size: LogoSize | null) {
    const stored = await repo.readLogo(this.db.$client, bp);
    if (!stored) throw notFound('Kein Logo vorhanden');
    const base = { fileName: stored.logo_file_name ?? 'logo', version: stored.logo_version };
    // Logos from before the file storage keep their bytes in the row.
    const original = async () => {
      const body = stored.logo_storage_key ? await this.storage.get(stored.logo_storage_key) : stored.logo;
      if (!body) throw notFound('Kein Logo vorhanden');
      return body;
    };
    if (size === null && stored.logo_content_type !== 'image/svg+xml')
      return { ...base, body: await original(), contentType: stored.logo_content_type ?? 'application/octet-stream' };
    const key = `${bp}:${stored.logo_version}:${size ?? 320}`;
    let rendered = logoCache.get(key);
    if (!rendered) {
      // A logo is at most 1 MB (supplierFileLimits): the renderer takes it whole.
      rendered = await renderLogo(await buffered(await original()), stored.logo_content_type ?? '', size ?? 320);
      if (logoCache.size >= LOGO_CACHE_MAX) logoCache.delete(logoCache.keys().next().value!);
      logoCache.set(key, rendered);
    }
    return { ...base, ...rendered };
  }

  async changes(bp: string) {
    await this.get(bp);
    const rows = await repo.listChanges(this.db.$client, bp);
    return rows.map((r) => ({
      id: Number(r.id),
      changedAt: r.changed_at.toISOString(),
      changedBy: r.changed_by,
      field: r.field,
      oldValue: r.old_value,
      newValue: r.new_value,
    }));
  }

  async interfaces(bp: string) {
    const s = await this.get(bp);
    return {
      supplierBusinessPartnerNo: s.supplierBusinessPartnerNo,
      name: s.name,
      gln: s.gln,
      supplierStatusId: s.supplierStatusId,
      inboundInterface: s.inboundInterface,
      outboundInterface: {
        communicationProtocolId: s.outboundInterface.communicationProtocolId,
        dataFormats: s.outboundInterface.dataFormats,
      },
    };
  }
}
