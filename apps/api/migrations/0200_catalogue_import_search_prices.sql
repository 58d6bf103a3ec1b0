-- Price updates (T_UPDATE_PRICES) write the search rows' lowest prices in a second session, one batch behind the
-- offers (issue 15 performance; docs/catalogue-import.md). A supplier is listed here from the first batch whose offer
-- prices committed until the search rows have every price of the import; an import that crashed in between leaves it
-- listed, and the supplier's next import first recomputes the lowest prices of all its products' search rows.
CREATE TABLE catalogue_import_search_prices (
  supplier_bp_number text PRIMARY KEY,
  since              timestamptz NOT NULL DEFAULT now()
);
