/**
 * Product data integration of a supplier as the imports leave it (for the supplier administration's
 * ItekIntegrationInfo and its status rule): the supplier integration columns plus the last import.
 */
import type { Queryable } from '../../db/queryable.ts';
import { findIntegrationRow } from './catalogue-import.repo.ts';

export interface CatalogueIntegration {
  /** 1 active (a catalogue import completed), 2 not active */
  integrationStatus: number;
  provider: string | null;
  productDataSource: number;
  lastImport: {
    id: number;
    status: string;
    finishedAt: string | null;
    format: string | null;
    transaction: string | null;
  } | null;
  /** An import is pending or running: the integration is not complete yet. */
  importRunning: boolean;
}

export async function catalogueIntegrationOf(pool: Queryable, supplier: string): Promise<CatalogueIntegration | null> {
  const r = await findIntegrationRow(pool, supplier);
  if (!r) return null;
  return {
    integrationStatus: r.integration_status,
    provider: r.integration_provider,
    productDataSource: r.product_data_source,
    lastImport: r.id
      ? {
          id: Number(r.id),
          status: r.status,
          finishedAt: r.finished_at?.toISOString() ?? null,
          format: r.format,
          transaction: r.transaction,
        }
      : null,
    importRunning: r.running,
  };
}
