import { randomUUID } from 'node:crypto';
import { FeatureSettingKey, ProductOrderableStatus, cartMessages } from '@shk/contracts';
import { inTransaction, type Db } from '../../db/pool.ts';
import { HttpProblem, badRequest, notFound } from '../../http/problem.ts';
import { cleanFileName, contentTypes, extensionOf, isAcceptedFileAt } from '../../lib/file-types.ts';
import { neutraliseCsvUploadFile } from '../../lib/uploads/csv-safe.ts';
import type { SpooledFile } from '../../lib/uploads/spooled-upload.ts';
import { assertStorageQuota } from '../../lib/uploads/storage-quota.ts';
import { readListSetting, readNumberSetting } from '../settings/index.ts';
import type { FileStorage } from '../storage/index.ts';
import {
  attachmentCount,
  attachmentOfPartner,
  deleteAttachmentOfPartner,
  deleteAttachmentsOf,
  deleteItems,
  insertAttachment,
  insertItem,
  type AttachmentFile,
  unreferencedAttachmentKeys,
  lockCartAndItemOfOffer,
  lockItem,
  setItemQuantity,
  updateItem,
} from './cart-items.repo.ts';
import { attachmentsOf, findCart, findItem } from './carts.repo.ts';
import { CartsService, checkDeliveryDate } from './carts.service.ts';
import type { OfferCatalog } from './offer-catalog.ts';

/** Where cart item attachments are stored; order lines made from them at checkout name the same files. */
export const CART_ATTACHMENTS_PREFIX = 'files/cart-attachments/';
/** A stored attachment younger than this is spared by the sweep: its row may not be written yet. */
export const UNREFERENCED_ATTACHMENT_AGE_MS = 60 * 60_000;
/** Keys checked per transaction of the sweep (each holds a short lock that makes checkouts wait). */
const SWEEP_BATCH = 500;

export interface AttachmentRules {
  maxCount: number;
  maxMb: number;
  allowedExtensions: string[];
}

/** Cart lines and their attachments; every item is reached through a cart of the caller's partner. */
export class CartItemsService {
  private readonly carts: CartsService;

  constructor(
    private readonly db: Db,
    private readonly offers: OfferCatalog,
    private readonly storage: FileStorage,
  ) {
    this.carts = new CartsService(db, offers);
  }

  /** Puts an offer into the given or the default cart; the same offer again raises the quantity. */
  /** `sessionContextId`: the caller's IDS session, whose own cart (punchout) stands in for the default cart. */
  async add(
    bpNumber: string,
    userId: string,
    body: { cartId?: number | null; productInstanceId: string; quantity: number; comment?: string | null },
    sessionContextId: string | null = null,
  ) {
    const cart = body.cartId
      ? await findCart(this.db.$client, bpNumber, body.cartId)
      : await this.carts.defaultCart(bpNumber, userId, sessionContextId);
    if (!cart) throw notFound(cartMessages.cartNotFound);
    const offer = (await this.offers.findOffers(bpNumber, [body.productInstanceId])).get(body.productInstanceId);
    if (!offer) throw notFound('Artikel nicht gefunden');
    // Server-side orderability: only offers of approved, active relations can be added.
    if (offer.orderableStatus !== ProductOrderableStatus.Orderable)
      throw new HttpProblem(400, cartMessages.notOrderable, { detail: `Bestellbarkeit ${offer.orderableStatus}` });
    const cartItemId = await inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      const existing = await lockCartAndItemOfOffer(c, cart.id, offer.productInstanceId);
      const quantity = (existing?.quantity ?? 0) + body.quantity;
      CartsService.checkQuantity(quantity, offer.minOrderQuantity);
      if (existing) {
        await setItemQuantity(c, existing.id, quantity, body.comment || null);
        return existing.id;
      }
      return insertItem(c, cart.id, {
        productInstanceId: offer.productInstanceId,
        supplierBpNumber: offer.supplierBpNumber,
        articleNumber: offer.articleNumber,
        quantity,
        comment: body.comment || null,
      });
    });
    return { productInstanceId: offer.productInstanceId, cartItemId, cartId: cart.id };
  }

  async update(
    bpNumber: string,
    itemId: number,
    body: {
      quantity: number;
      projectId?: number | null;
      deliveryDate?: string | null;
      deliveryAddressId?: number | null;
      comment?: string | null;
    },
  ) {
    const item = await this.item(bpNumber, itemId);
    await this.carts.checkReferences(this.db.$client, bpNumber, body);
    checkDeliveryDate(body.deliveryDate, 'body.deliveryDate');
    const offer = (await this.offers.findOffers(bpNumber, [item.product_instance_id])).get(item.product_instance_id);
    CartsService.checkQuantity(body.quantity, offer?.minOrderQuantity ?? 1);
    // Empty project, date or note are stored as null.
    await updateItem(this.db.$client, item.id, {
      quantity: body.quantity,
      projectId: body.projectId,
      deliveryDate: body.deliveryDate === undefined ? undefined : body.deliveryDate || null,
      deliveryAddressId: body.deliveryAddressId,
      comment: body.comment === undefined ? undefined : body.comment?.trim() || null,
    });
    return { id: item.id };
  }

  async remove(bpNumber: string, itemId: number) {
    const item = await this.item(bpNumber, itemId);
    await deleteItems(this.db.$client, item.cart_id, [item.id]);
  }

  async removeMany(bpNumber: string, cartId: number, itemIds: number[]) {
    if (!(await findCart(this.db.$client, bpNumber, cartId))) throw notFound(cartMessages.cartNotFound);
    await deleteItems(this.db.$client, cartId, itemIds);
  }

  /** The item of a cart of the partner (404 otherwise). */
  async item(bpNumber: string, itemId: number) {
    const item = await findItem(this.db.$client, bpNumber, itemId);
    if (!item) throw notFound('Position nicht gefunden');
    return item;
  }

  async attachmentRules(): Promise<AttachmentRules> {
    const [maxCount, maxMb, allowedExtensions] = await Promise.all([
      readNumberSetting(this.db, FeatureSettingKey.AttachmentsMaxFilesCount),
      readNumberSetting(this.db, FeatureSettingKey.AttachmentsMaxFileSize),
      readListSetting(this.db, FeatureSettingKey.AttachmentsAllowedFileFormats),
    ]);
    return { maxCount, maxMb, allowedExtensions };
  }

  /**
   * Stores uploaded files with an item. With a maximum of 1 a new file replaces the old one; otherwise the
   * count must stay within the maximum. Returns all attachments of the item.
   */
  /** The partner's storage quota (PARTNER_STORAGE_QUOTA_MB) must hold `addBytes` more. */
  async checkStorageQuota(bpNumber: string, addBytes: number) {
    await assertStorageQuota(this.db.$client, bpNumber, addBytes);
  }

  async addAttachments(itemId: number, uploads: SpooledFile[], rules: AttachmentRules) {
    if (!uploads.length) throw badRequest('Keine Datei übermittelt');
    if (uploads.length > rules.maxCount)
      throw new HttpProblem(400, cartMessages.maxFileCount(rules.maxCount), { type: 'maxFileCount' });
    const files = [];
    for (const upload of uploads) {
      const name = cleanFileName(upload.name);
      if (!(await isAcceptedFileAt(name, upload, rules.allowedExtensions)))
        throw new HttpProblem(400, cartMessages.fileFormat, { type: 'fileFormat', detail: name });
      // Attachments go to the supplier with the order: a CSV must not carry spreadsheet formulas.
      const content = await neutraliseCsvUploadFile(name, upload.path);
      if (!content) throw new HttpProblem(400, cartMessages.fileFormat, { type: 'fileFormat', detail: name });
      files.push({ name, content });
    }
    // Into the file storage first (any node serves them), outside the transaction: a write to the postgres backend
    // takes connections of its own. Refused below (count), they are removed again.
    const stored: AttachmentFile[] = [];
    try {
      for (const f of files) {
        const storageKey = `${CART_ATTACHMENTS_PREFIX}${itemId}/${randomUUID()}`;
        const { size } = await this.storage.put(storageKey, f.content());
        const contentType = contentTypes[extensionOf(f.name)] ?? 'application/octet-stream';
        stored.push({ name: f.name, contentType, size, storageKey });
      }
      return await inTransaction(this.db, async (tx) => {
        const c = tx.$client;
        await lockItem(c, itemId);
        // A replaced file stays in the storage until the sweep finds no row naming it (an order may share it).
        if (rules.maxCount === 1) await deleteAttachmentsOf(c, itemId);
        else if ((await attachmentCount(c, itemId)) + files.length > rules.maxCount)
          throw new HttpProblem(400, cartMessages.maxFileCount(rules.maxCount), { type: 'maxFileCount' });
        for (const f of stored) await insertAttachment(c, itemId, f);
        return (await attachmentsOf(c, [itemId])).get(itemId) ?? [];
      });
    } catch (error) {
      for (const f of stored) await this.storage.delete(f.storageKey).catch(() => {});
      throw error;
    }
  }

  async attachment(bpNumber: string, itemId: number, id: number) {
    const file = await attachmentOfPartner(this.db.$client, bpNumber, itemId, id);
    if (!file) throw notFound('Anhang nicht gefunden');
    // Attachments from before the file storage keep their bytes in the row.
    const content = file.storageKey ? await this.storage.get(file.storageKey) : file.content;
    if (!content) throw notFound('Anhang nicht gefunden');
    return { fileName: file.fileName, contentType: file.contentType, content };
  }

  async removeAttachment(bpNumber: string, itemId: number, id: number) {
    if (!(await deleteAttachmentOfPartner(this.db.$client, bpNumber, itemId, id)))
      throw notFound('Anhang nicht gefunden');
  }

  /**
   * Removes stored attachments no cart item or order line names any more (removed, replaced, their item or cart
   * deleted). The file is shared by a cart item and the order lines checkout made from it, so it goes only when
   * neither names it; rows are never written for a file that is not named already (except right after its upload,
   * which the age spares). Any node may run it: the storage and the rows are shared.
   */
  async removeUnreferencedAttachments(now = Date.now()) {
    const candidates: string[] = [];
    for await (const file of this.storage.list(CART_ATTACHMENTS_PREFIX))
      if (now - file.modifiedAt.getTime() >= UNREFERENCED_ATTACHMENT_AGE_MS) candidates.push(file.key);
    let removed = 0;
    for (let i = 0; i < candidates.length; i += SWEEP_BATCH) {
      const batch = candidates.slice(i, i + SWEEP_BATCH);
      const unreferenced = await inTransaction(this.db, (tx) => unreferencedAttachmentKeys(tx.$client, batch));
      for (const key of unreferenced) await this.storage.delete(key);
      removed += unreferenced.length;
    }
    return removed;
  }
}
