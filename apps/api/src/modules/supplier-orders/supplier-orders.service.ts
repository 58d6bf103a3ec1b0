import {
  FeatureSettingKey,
  cartMessages,
  supplierOrderMessages as M,
  supplierOrderStatusLabels,
  type ConfirmationBody,
} from '@shk/contracts';
import { inTransaction, type AfterCommit } from '../../db/pool.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { AppDeps } from '../../http/types.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import { extensionOf, hasContentCheck, verifyFileContentAt } from '../../lib/file-types.ts';
import { neutraliseCsvUploadFile } from '../../lib/uploads/csv-safe.ts';
import type { SpooledFile } from '../../lib/uploads/spooled-upload.ts';
import { assertStorageQuota } from '../../lib/uploads/storage-quota.ts';
import { readNumberSetting } from '../settings/index.ts';
import { applyConfirmation, enqueueConfirmationMail } from './confirmation.ts';
import { supplierOrderDetails } from './supplier-order-details.ts';
import * as repo from './supplier-orders.repo.ts';
import { fileStorage } from '../storage/index.ts';
import { randomUUID } from 'node:crypto';

export class SupplierOrdersService {
  constructor(private readonly deps: Pick<AppDeps, 'pool' | 'db' | 'mail' | 'config'>) {}

  overview(f: repo.OverviewFilter) {
    return repo.overview(this.deps.pool, f);
  }

  statuses() {
    return Object.entries(supplierOrderStatusLabels).map(([id, name]) => ({ id: Number(id), name }));
  }

  /** The order id in the caller's scope; another supplier's order is a 404. */
  async scopedId(orderNumber: string, scope: { supplier?: string; buyer?: string } = {}) {
    const id = await repo.orderId(this.deps.pool, orderNumber, scope);
    if (id == null) throw notFound(M.notFound);
    return id;
  }

  async details(orderNumber: string, supplierBpNumber?: string) {
    const id = await this.scopedId(orderNumber, { supplier: supplierBpNumber });
    return (await supplierOrderDetails(this.deps.pool, [id]))[0] ?? null;
  }

  async confirm(orderNumber: string, supplierBpNumber: string, statusId: number, body: ConfirmationBody) {
    await this.inTransaction(async (client, afterCommit) => {
      const order = await repo.lockOrder(client, orderNumber, supplierBpNumber);
      if (!order) throw notFound(M.notFound);
      await applyConfirmation(client, order, statusId, body, 'portal');
      const mailId = await enqueueConfirmationMail(client, this.deps, order, statusId);
      if (mailId != null) afterCommit(() => this.deps.mail.dispatch([mailId]));
    });
    return this.details(orderNumber, supplierBpNumber);
  }

  async documentLimits() {
    const [maxCount, maxMb] = await Promise.all([
      readNumberSetting(this.deps.db, FeatureSettingKey.SupplierOrderDocumentsMaxFilesCount),
      readNumberSetting(this.deps.db, FeatureSettingKey.SupplierOrderDocumentsMaxFileSize),
    ]);
    return { maxCount, maxMb };
  }

  /**
   * Stores uploaded documents; the order's total document count stays within the configured maximum. Every
   * format is allowed (spec), but a file of a known type must be that type (a PDF with an HTML page appended,
   * an HTML page named .csv are refused), CSV files are neutralised against formulas (they go to the buyer),
   * and the documents count in the supplier's storage quota.
   */
  async addDocuments(
    id: number,
    uploads: { name: string; contentType: string; upload: SpooledFile }[],
    userId: string,
    limits: { maxCount: number; maxMb: number },
  ) {
    const tooMany = () =>
      new HttpProblem(400, M.documentLimits(limits.maxCount, limits.maxMb), { type: 'documentLimits' });
    // Checked before the files' formats (the limit is the answer to a batch that is too large), and again under the
    // order's lock below.
    if ((await repo.documentCount(this.deps.pool, id)) + uploads.length > limits.maxCount) throw tooMany();
    const files = [];
    for (const f of uploads) {
      const wrongFormat = () => new HttpProblem(400, cartMessages.fileFormat, { type: 'fileFormat', detail: f.name });
      if (hasContentCheck(f.name) && !(await verifyFileContentAt(f.name, f.upload, [extensionOf(f.name)])))
        throw wrongFormat();
      const content = await neutraliseCsvUploadFile(f.name, f.upload.path);
      if (!content) throw wrongFormat();
      files.push({ name: f.name, contentType: f.contentType, content });
    }
    // Into the file storage first (any node serves them), outside the transaction: a write to the postgres backend
    // takes connections of its own. Refused below (count, quota), they are removed again.
    const storage = fileStorage(this.deps);
    const stored: { name: string; contentType: string; size: number; storageKey: string }[] = [];
    try {
      for (const f of files) {
        const storageKey = `files/order-documents/${id}/${randomUUID()}`;
        const { size } = await storage.put(storageKey, f.content());
        stored.push({ name: f.name, contentType: f.contentType, size, storageKey });
      }
      await this.inTransaction(async (client) => {
        const supplierBpNumber = await repo.lockSupplierOfOrder(client, id);
        if ((await repo.documentCount(client, id)) + files.length > limits.maxCount) throw tooMany();
        await assertStorageQuota(
          client,
          supplierBpNumber,
          stored.reduce((sum, f) => sum + f.size, 0),
        );
        for (const f of stored) await repo.insertDocument(client, id, f, userId);
      });
    } catch (error) {
      for (const f of stored) await storage.delete(f.storageKey).catch(() => {});
      throw error;
    }
  }

  async document(id: number, documentId: number) {
    const d = await repo.document(this.deps.pool, id, documentId);
    if (!d) throw notFound(M.documentNotFound);
    // Documents from before the file storage keep their bytes in the row.
    const content = d.storage_key ? await fileStorage(this.deps).get(d.storage_key) : d.content;
    if (!content) throw notFound(M.documentNotFound);
    return { fileName: d.file_name, contentType: d.content_type, content };
  }

  async deleteDocument(id: number, documentId: number) {
    const removed = await repo.deleteDocument(this.deps.pool, id, documentId);
    if (!removed) throw notFound(M.documentNotFound);
    if (removed.storage_key) await fileStorage(this.deps).delete(removed.storage_key);
  }

  inTransaction<T>(work: (client: Queryable, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
    return inTransaction(this.deps.db, (tx) => work(tx.$client, tx.afterCommit));
  }
}
