import { securityProblemTypes, securityTexts } from '@shk/contracts';
import { HttpProblem } from '../../http/problem.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { AppConfig } from '../../config.ts';

/**
 * Storage a partner may fill with uploaded files: a buyer's cart item attachments and the attachments of the
 * orders it placed; a supplier's order documents (uploaded by its sellers), its logo and its onboarding form
 * template, and the media files its catalogue imports stored (catalogue_media_files). Catalogue import files
 * themselves are not counted: they live on disk only until their import has run.
 */
export let PARTNER_STORAGE_QUOTA_MB = 500;

/**
 * Sets the quota from the configuration (PARTNER_STORAGE_QUOTA_MB) when the runtime starts. It is one setting of the
 * process, read where uploads are checked (carts, order documents, supplier files, catalogue media); an ES live
 * binding, so every importer sees the configured value without each service carrying the configuration.
 */
export function configureStorageQuota(config: Pick<AppConfig, 'partnerStorageQuotaMb'>) {
  PARTNER_STORAGE_QUOTA_MB = config.partnerStorageQuotaMb;
}

/**
 * Bytes of uploaded files a partner holds now (carts, orders it placed, order documents, logo, template, catalogue
 * media), from the rows' recorded sizes (files in the file storage) or their bytes (files from before it). An
 * attachment a cart item and the order line made from it share is counted for each, as when each had its copy.
 */
export async function partnerStorageUsed(db: Queryable, bpNumber: string): Promise<number> {
  const { rows } = await db.query<{ used: string | number }>(
    `SELECT COALESCE((SELECT sum(a.size_bytes) FROM cart_item_attachments a
                        JOIN cart_items i ON i.id = a.cart_item_id
                        JOIN carts c ON c.id = i.cart_id
                       WHERE c.bp_number = $1), 0)
          + COALESCE((SELECT sum(a.size_bytes) FROM order_line_attachments a
                        JOIN order_lines l ON l.id = a.order_line_id
                        JOIN supplier_orders s ON s.id = l.supplier_order_id
                       WHERE s.buyer_bp_number = $1), 0)
          + COALESCE((SELECT sum(d.size_bytes) FROM supplier_order_documents d
                        JOIN supplier_orders s ON s.id = d.supplier_order_id
                       WHERE s.supplier_bp_number = $1), 0)
          + COALESCE((SELECT COALESCE(logo_size_bytes, octet_length(logo), 0)
                           + COALESCE(onboarding_form_template_size_bytes, octet_length(onboarding_form_template), 0)
                        FROM suppliers WHERE bp_number = $1), 0)
          + COALESCE((SELECT sum(m.size_bytes) FROM catalogue_media_files m WHERE m.supplier_bp_number = $1), 0) AS used`,
    [bpNumber],
  );
  return Number(rows[0]?.used ?? 0);
}

/** Refuses (413 problem, German) an upload that would take the partner over its quota. */
export async function assertStorageQuota(
  db: Queryable,
  bpNumber: string,
  addBytes: number,
  quotaMb = PARTNER_STORAGE_QUOTA_MB,
): Promise<void> {
  const used = await partnerStorageUsed(db, bpNumber);
  if (used + addBytes > quotaMb * 1024 * 1024) {
    throw new HttpProblem(413, securityTexts.quotaExceededTitle, {
      type: securityProblemTypes.quotaExceeded,
      detail: securityTexts.quotaExceededDetail(quotaMb),
    });
  }
}
