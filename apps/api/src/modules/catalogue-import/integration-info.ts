/**
 * Product data integration of a supplier as the imports leave it (for the supplier administration's
 * ItekIntegrationInfo and its status rule): the supplier integration columns plus the last import.
 */
import type { Queryable } from '../../db/queryable.ts';

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
  const { rows } = await pool.query(
    `SELECT s.integration_status, s.integration_provider, s.product_data_source,
            i.id, i.status, i.finished_at, i.format, i.transaction,
            EXISTS (SELECT 1 FROM catalogue_imports r WHERE r.supplier_bp_number = s.bp_number AND r.status IN ('Pending', 'InProgress')) AS running
       FROM suppliers s
       LEFT JOIN LATERAL (SELECT * FROM catalogue_imports r WHERE r.supplier_bp_number = s.bp_number ORDER BY r.id DESC LIMIT 1) i ON true
      WHERE s.bp_number = $1`,
    [supplier],
  );
  const r = rows[0];
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
