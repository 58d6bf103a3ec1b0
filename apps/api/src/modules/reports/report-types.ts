import {
  ReportType,
  communicationProtocolLabels,
  customerOrderStatusLabels,
  relationStatusLabels,
  supplierOrderStatusLabels,
} from '@shk/contracts';

export type CellType = 'text' | 'int' | 'number' | 'money' | 'date' | 'datetime';

export interface ReportColumn {
  header: string;
  type: CellType;
  width: number;
}

/**
 * One report type: its columns and the query that yields one row per output line, already in column
 * order. $1/$2 are the start and end date (Berlin calendar days, both inclusive). Dates and times are
 * selected as Berlin wall-clock text so that the file shows what a user in Germany expects.
 */
export interface ReportDefinition {
  columns: ReportColumn[];
  sql: string;
  /** Turns a database row (array mode) into cell values; defaults to the row itself. */
  map?: (row: unknown[]) => unknown[];
}

const inRange = (column: string) =>
  `${column} >= ($1::date)::timestamp AT TIME ZONE 'Europe/Berlin' AND ${column} < ($2::date + 1)::timestamp AT TIME ZONE 'Europe/Berlin'`;
const berlin = (column: string) => `to_char(${column} AT TIME ZONE 'Europe/Berlin', 'YYYY-MM-DD"T"HH24:MI:SS')`;
const label = (labels: Record<number, string>) => (id: unknown) => labels[Number(id)] ?? String(id);

const supplierOrderLabel = label(supplierOrderStatusLabels);
const attemptOutcomeLabels: Record<string, string> = { failed: 'fehlgeschlagen', abandoned: 'abgebrochen' };
/** The supplier's answer per line, as the order detail shows it. */
const lineConfirmationLabels: Record<string, string> = {
  confirmed: 'Bestätigt',
  changed: 'Geändert',
  replaced: 'Ersetzt',
  removed: 'Entfernt',
  added: 'Hinzugefügt',
};
const noAttemptLogged = 'Versand fehlgeschlagen (kein Übertragungsversuch protokolliert)';

export const reportDefinitions: Record<ReportType, ReportDefinition> = {
  [ReportType.SupplierOrders]: {
    columns: [
      { header: 'Lieferantenbestellung', type: 'text', width: 22 },
      { header: 'Kundenbestellung', type: 'text', width: 20 },
      { header: 'Lieferant Nr.', type: 'text', width: 13 },
      { header: 'Lieferant', type: 'text', width: 30 },
      { header: 'Käufer Nr.', type: 'text', width: 12 },
      { header: 'Käufer', type: 'text', width: 30 },
      { header: 'Kundennummer', type: 'text', width: 16 },
      { header: 'Bestellt am', type: 'datetime', width: 17 },
      { header: 'An Lieferant übermittelt am', type: 'datetime', width: 17 },
      { header: 'Bestätigt am', type: 'datetime', width: 17 },
      { header: 'Status', type: 'text', width: 24 },
      { header: 'Nettowert', type: 'money', width: 14 },
      { header: 'Lieferkosten', type: 'money', width: 13 },
      { header: 'Stunden bis Bestätigung', type: 'number', width: 14 },
      { header: 'Nettowert bestellt', type: 'money', width: 14 },
    ],
    sql: `SELECT so.supplier_order_number, co.customer_order_number, so.supplier_bp_number, sp.name,
                 so.buyer_bp_number, bp.name, so.supplier_customer_number,
                 ${berlin('so.placed_at')}, ${berlin('so.sent_at')}, ${berlin('so.confirmed_at')}, so.status_id,
                 so.current_net_value::float8, so.delivery_cost::float8,
                 round((extract(epoch FROM so.confirmed_at - COALESCE(so.sent_at, so.placed_at)) / 3600)::numeric, 1)::float8,
                 so.net_value::float8
            FROM supplier_orders so
            JOIN customer_orders co ON co.id = so.customer_order_id
            LEFT JOIN business_partners sp ON sp.bp_number = so.supplier_bp_number
            LEFT JOIN business_partners bp ON bp.bp_number = so.buyer_bp_number
           WHERE ${inRange('so.placed_at')} AND NOT so.is_test
           ORDER BY so.placed_at, so.id`,
    map: (r) => [...r.slice(0, 10), supplierOrderLabel(r[10]), ...r.slice(11)],
  },
  [ReportType.SupplierOrderLines]: {
    columns: [
      { header: 'Lieferantenbestellung', type: 'text', width: 22 },
      { header: 'Bestellt am', type: 'datetime', width: 17 },
      { header: 'Lieferant', type: 'text', width: 30 },
      { header: 'Käufer', type: 'text', width: 30 },
      { header: 'Position', type: 'int', width: 9 },
      { header: 'Artikelnummer', type: 'text', width: 18 },
      { header: 'Bezeichnung', type: 'text', width: 40 },
      { header: 'Menge', type: 'number', width: 10 },
      { header: 'Einheit', type: 'text', width: 8 },
      { header: 'Einzelpreis', type: 'money', width: 13 },
      { header: 'Positionswert', type: 'money', width: 14 },
      { header: 'Lieferdatum', type: 'date', width: 12 },
      { header: 'Bestätigung', type: 'text', width: 13 },
      { header: 'Menge bestellt', type: 'number', width: 10 },
      { header: 'Positionswert bestellt', type: 'money', width: 14 },
    ],
    // The line as it stands (the supplier's confirmed values once confirmed; removed: 0), then what was ordered
    // (a line the supplier added: 0).
    sql: `SELECT so.supplier_order_number, ${berlin('so.placed_at')}, sp.name, bp.name, l.line_no,
                 COALESCE(l.confirmed_article_number, l.article_number), COALESCE(l.confirmed_name, l.name),
                 CASE WHEN l.confirmation_kind = 'removed' THEN 0 ELSE COALESCE(l.confirmed_quantity, l.quantity) END::float8,
                 l.unit_code, COALESCE(l.confirmed_unit_price, l.unit_price)::float8,
                 CASE WHEN l.confirmation_kind IS NULL THEN l.quantity_price
                      WHEN l.confirmation_kind = 'removed' THEN 0 ELSE l.confirmed_quantity_price END::float8,
                 to_char(COALESCE(l.confirmed_delivery_date, l.delivery_date), 'YYYY-MM-DD'), l.confirmation_kind,
                 CASE WHEN l.confirmation_kind = 'added' THEN 0 ELSE l.quantity END::float8,
                 CASE WHEN l.confirmation_kind = 'added' THEN 0 ELSE l.quantity_price END::float8
            FROM supplier_orders so
            JOIN order_lines l ON l.supplier_order_id = so.id
            LEFT JOIN business_partners sp ON sp.bp_number = so.supplier_bp_number
            LEFT JOIN business_partners bp ON bp.bp_number = so.buyer_bp_number
           WHERE ${inRange('so.placed_at')} AND NOT so.is_test
           ORDER BY so.placed_at, so.id, l.line_no`,
    map: (r) => [
      ...r.slice(0, 12),
      r[12] == null ? null : (lineConfirmationLabels[String(r[12])] ?? r[12]),
      ...r.slice(13),
    ],
  },
  [ReportType.CustomerOrders]: {
    columns: [
      { header: 'Kundenbestellung', type: 'text', width: 20 },
      { header: 'Bestellt am', type: 'datetime', width: 17 },
      { header: 'Käufer Nr.', type: 'text', width: 12 },
      { header: 'Käufer', type: 'text', width: 30 },
      { header: 'Warenkorb', type: 'text', width: 20 },
      { header: 'Status', type: 'text', width: 24 },
      { header: 'Lieferantenbestellungen', type: 'int', width: 12 },
      { header: 'Nettowert', type: 'money', width: 14 },
      { header: 'Lieferkosten', type: 'money', width: 13 },
      { header: 'Nettowert bestellt', type: 'money', width: 14 },
    ],
    // Nettowert as it stands: the ordered total moved by the suppliers' confirmations (the views' rule).
    sql: `SELECT co.customer_order_number, ${berlin('co.placed_at')}, co.bp_number, bp.name, co.cart_name, co.status_id,
                 (SELECT count(*) FROM supplier_orders so WHERE so.customer_order_id = co.id)::int,
                 (co.total_net + COALESCE((SELECT sum(so.current_net_value - so.net_value) FROM supplier_orders so
                                            WHERE so.customer_order_id = co.id), 0))::float8,
                 co.delivery_cost_total::float8, co.total_net::float8
            FROM customer_orders co
            LEFT JOIN business_partners bp ON bp.bp_number = co.bp_number
           WHERE ${inRange('co.placed_at')}
           ORDER BY co.placed_at, co.id`,
    map: (r) => [...r.slice(0, 5), label(customerOrderStatusLabels)(r[5]), ...r.slice(6)],
  },
  [ReportType.SupplierCustomerRelations]: {
    columns: [
      { header: 'Lieferant Nr.', type: 'text', width: 13 },
      { header: 'Lieferant', type: 'text', width: 30 },
      { header: 'Kunde Nr.', type: 'text', width: 12 },
      { header: 'Kunde', type: 'text', width: 30 },
      { header: 'Kundennummer', type: 'text', width: 16 },
      { header: 'Status', type: 'text', width: 26 },
      { header: 'Aktiv', type: 'text', width: 8 },
      { header: 'Angelegt am', type: 'datetime', width: 17 },
      { header: 'Geändert am', type: 'datetime', width: 17 },
    ],
    // Relations created or changed in the range.
    sql: `SELECT sc.supplier_bp_number, sp.name, sc.buyer_bp_number, bp.name, sc.supplier_customer_number, sc.relation_status_id,
                 CASE WHEN sc.is_active THEN 'ja' ELSE 'nein' END, ${berlin('sc.created_at')}, ${berlin('sc.updated_at')}
            FROM supplier_customers sc
            LEFT JOIN business_partners sp ON sp.bp_number = sc.supplier_bp_number
            LEFT JOIN business_partners bp ON bp.bp_number = sc.buyer_bp_number
           WHERE (${inRange('sc.created_at')}) OR (${inRange('sc.updated_at')})
           ORDER BY sc.supplier_bp_number, sc.buyer_bp_number`,
    map: (r) => [...r.slice(0, 5), label(relationStatusLabels)(r[5]), ...r.slice(6)],
  },
  [ReportType.TransmissionFailures]: {
    columns: [
      { header: 'Lieferantenbestellung', type: 'text', width: 22 },
      { header: 'Lieferant Nr.', type: 'text', width: 13 },
      { header: 'Lieferant', type: 'text', width: 30 },
      { header: 'Käufer', type: 'text', width: 30 },
      { header: 'Bestellt am', type: 'datetime', width: 17 },
      { header: 'Versuch', type: 'int', width: 9 },
      { header: 'Übertragungsweg', type: 'text', width: 16 },
      { header: 'Versuch am', type: 'datetime', width: 17 },
      { header: 'Ergebnis', type: 'text', width: 15 },
      { header: 'Fehler', type: 'text', width: 60 },
      { header: 'Status der Bestellung', type: 'text', width: 24 },
      { header: 'Nettowert', type: 'money', width: 14 },
    ],
    // One row per failed or abandoned transmission attempt (supplier_order_transmission_attempts) started
    // in the range; orders in SendingFailed without a logged attempt (imported history) once, at the time
    // of their status change.
    sql: `SELECT so.supplier_order_number, so.supplier_bp_number, sp.name, bp.name, ${berlin('so.placed_at')},
                 t.attempt_no, t.protocol_id, ${berlin('t.at')}, t.outcome, t.error, so.status_id, so.net_value::float8
            FROM (SELECT a.supplier_order_id, a.attempt_no, a.protocol_id, a.started_at AS at, a.outcome, a.error
                    FROM supplier_order_transmission_attempts a
                   WHERE a.outcome IN ('failed', 'abandoned') AND ${inRange('a.started_at')}
                  UNION ALL
                  SELECT so.id, NULL, NULL, so.status_changed_at, NULL, NULL
                    FROM supplier_orders so
                   WHERE so.status_id = 3 AND ${inRange('so.status_changed_at')}
                     AND NOT EXISTS (SELECT 1 FROM supplier_order_transmission_attempts a
                                      WHERE a.supplier_order_id = so.id AND a.outcome IN ('failed', 'abandoned'))) t
            JOIN supplier_orders so ON so.id = t.supplier_order_id
            LEFT JOIN business_partners sp ON sp.bp_number = so.supplier_bp_number
            LEFT JOIN business_partners bp ON bp.bp_number = so.buyer_bp_number
           WHERE NOT so.is_test
           ORDER BY t.at, so.id, t.attempt_no`,
    map: (r) => [
      ...r.slice(0, 6),
      r[6] == null ? null : (communicationProtocolLabels[Number(r[6])] ?? String(r[6])),
      r[7],
      r[8] == null ? null : (attemptOutcomeLabels[String(r[8])] ?? String(r[8])),
      r[9] ?? (r[8] == null ? noAttemptLogged : null),
      supplierOrderLabel(r[10]),
      r[11],
    ],
  },
  [ReportType.SearchTermsWithoutHits]: {
    columns: [
      { header: 'Suchbegriff', type: 'text', width: 30 },
      { header: 'Quelle', type: 'text', width: 22 },
      { header: 'Anzahl', type: 'int', width: 9 },
      { header: 'Zuletzt am', type: 'datetime', width: 17 },
      { header: 'Kommentare', type: 'text', width: 50 },
    ],
    sql: `SELECT term, source, count::int, ${berlin('last_at')}, comments FROM (
            SELECT lower(term) AS term, 'Suche ohne Treffer' AS source, count(*) AS count, max(created_at) AS last_at,
                   NULL::text AS comments
              FROM search_zero_hits WHERE ${inRange('created_at')} GROUP BY lower(term)
            UNION ALL
            SELECT lower(COALESCE(substring(url FROM '[?&]term=([^&#]*)'), '')), 'Negatives Feedback', count(*), max(created_at),
                   string_agg(comment, ' | ' ORDER BY created_at) FILTER (WHERE comment IS NOT NULL)
              FROM feedbacks WHERE NOT is_positive AND ${inRange('created_at')} GROUP BY 1
          ) t ORDER BY count DESC, term, source`,
    map: (r) => [decodeTerm(r[0]), ...r.slice(1)],
  },
};

/** Search URLs carry the term form-encoded. */
function decodeTerm(value: unknown): string {
  const raw = String(value ?? '');
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
