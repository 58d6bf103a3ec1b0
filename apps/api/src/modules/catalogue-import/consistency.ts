/**
 * Offers, search rows and facet counts agree: after every import (in the import's session, under the supplier's
 * lock) and at start (every supplier without an import pending or running), a supplier's offers are compared with
 * the search rows and the supplier facet (the search rows' supplier numbers), and what disagrees is repaired:
 * products with an offer of the supplier get their search row (the document built from the stored product, as the
 * import builds it; only the file's keywords, which are not stored, are missing), search rows get the supplier
 * numbers and lowest price of their offers, and rows without any offer go. Then the catalogue version is raised, so
 * every process's search caches (and the index engine) follow.
 */
import type pg from 'pg';
import { inClientTransaction } from '../../db/pool.ts';
import { searchDocumentOf } from '../catalogue/index.ts';
import { line } from './catalogue-writer.ts';
import * as repo from './consistency.repo.ts';
import * as run from './import-run.repo.ts';
import { copySearchStage, dropSearchStaging, prepareSearchStaging, stageSearchVectors } from './staging.repo.ts';
import { publishSearch, refreshSearchOffers } from './search-publication.repo.ts';
import { addImportedTerms, lowerTermsOfWithdrawn } from './search-terms.repo.ts';

/** Products whose search documents are built and staged per transaction. */
const CHUNK = 10_000;

export interface Repaired {
  supplier: string;
  /** Search rows created for offers that had none. */
  created: number;
  /** Search rows whose supplier numbers (and lowest price) were wrong, or that had no offer left. */
  refreshed: number;
}

/**
 * Checks and repairs one supplier, in session `c` that holds the supplier's import lock (or whose import is
 * running: it is called at the import's end).
 */
export async function checkSupplier(c: pg.PoolClient, supplier: string): Promise<Repaired> {
  const none = { supplier, created: 0, refreshed: 0 };
  const supplierNo = await repo.supplierNoOf(c, supplier);
  if (supplierNo === null) return none;
  const { missing, stale } = await repo.disagreements(c, supplier, supplierNo);
  if (!missing.length && !stale.length) return none;
  if (stale.length)
    await inClientTransaction(c, async () => {
      await lowerTermsOfWithdrawn(c, stale);
      await refreshSearchOffers(c, stale);
    });
  let created = 0;
  if (missing.length) created = await createSearchRows(c, missing);
  await inClientTransaction(c, () => run.bumpCatalogueVersion(c));
  return { supplier, created, refreshed: stale.length };
}

/** Builds, stages and publishes the search rows of `ids` (products with offers and without a search row). */
async function createSearchRows(c: pg.PoolClient, ids: number[]): Promise<number> {
  const stageId = await repo.repairStageId(c);
  await repo.clearStagedRepair(c, stageId);
  await prepareSearchStaging(c);
  try {
    for (let k = 0; k < ids.length; k += CHUNK) {
      const rows = await repo.productDocumentRows(c, ids.slice(k, k + CHUNK));
      const text = rows
        .map((r, i) => {
          const doc = searchDocumentOf({
            productName: r.product_name,
            modelNumber: r.model_number,
            brandName: r.brand,
            series: r.series,
            className: r.class_name,
            leafName: r.leaf_name ?? '',
            productType: r.product_type ?? r.class_name,
            alphanumericValues: r.values,
            productDescr: r.product_descr,
          });
          return line([k + i, r.product_id, doc.a, doc.b, doc.c, doc.d]);
        })
        .join('');
      await inClientTransaction(c, async () => {
        await copySearchStage(c, [Buffer.from(text, 'utf8')]);
        await stageSearchVectors(c, false, stageId, []);
      });
    }
    return await inClientTransaction(c, async () => {
      await addImportedTerms(c, stageId);
      return publishSearch(c, stageId);
    });
  } finally {
    await dropSearchStaging(c).catch(() => {});
    await repo.clearStagedRepair(c, stageId).catch(() => {});
  }
}

/**
 * The check at start: every supplier without an import pending or running whose lock is free (an import that is
 * about to begin checks after itself) and that no process checked since the catalogue last changed (a rolling restart
 * of several nodes checks once, not once per node). Returns the suppliers checked and those where something was
 * repaired.
 */
export async function checkAllSuppliers(pool: pg.Pool): Promise<{ checked: string[]; repaired: Repaired[] }> {
  const checked: string[] = [];
  const repaired: Repaired[] = [];
  const c = await run.openSession(pool);
  try {
    for (const supplier of await repo.suppliersToCheck(c)) {
      if (!(await run.tryLockSupplier(c, supplier))) continue;
      try {
        if (await repo.checkedSinceLastChange(c, supplier)) continue;
        const r = await checkSupplier(c, supplier);
        await repo.recordChecked(c, supplier);
        checked.push(supplier);
        if (r.created || r.refreshed) repaired.push(r);
      } finally {
        await run.unlockSupplier(c, supplier);
      }
    }
  } finally {
    c.release();
  }
  return { checked, repaired };
}
