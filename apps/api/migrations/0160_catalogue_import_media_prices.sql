-- Catalogue import: successors, future price blocks and supplier media from a zip (issue 15;
-- docs/catalogue-import.md).

-- PRODUCT_REFERENCE type="followup" (BMEcat 2005; "successor" accepted too): product ids of the
-- articles that replace this one (shown as related products of kind "successor").
ALTER TABLE products ADD COLUMN successors text[] NOT NULL DEFAULT '{}';

-- PRODUCT_PRICE_DETAILS blocks that start after the day of the import (Europe/Berlin). The offer row
-- keeps the price valid today; every price read takes the latest block of this table whose validity
-- has begun (today in Europe/Berlin) instead, until the daily promotion moves it into the offer.
CREATE TABLE catalogue_offer_prices (
  product_instance_id text NOT NULL REFERENCES product_offers(product_instance_id) ON DELETE CASCADE,
  valid_from          date NOT NULL,
  valid_to            date,
  net_price           numeric(12,4),
  gross_list_price    numeric(12,4),
  price_scales        jsonb,
  price_basis         numeric(10,3) CHECK (price_basis > 0),
  PRIMARY KEY (product_instance_id, valid_from)
);
CREATE INDEX catalogue_offer_prices_from_idx ON catalogue_offer_prices (valid_from);

-- Media files delivered in a zip next to the BMEcat XML, stored under DATA_DIR/catalogue-media/<bp>/
-- by content hash (one copy per supplier however many products show it); their bytes count
-- towards the supplier's storage quota (PARTNER_STORAGE_QUOTA_MB).
CREATE TABLE catalogue_media_files (
  supplier_bp_number text NOT NULL REFERENCES business_partners(bp_number),
  sha256             text NOT NULL,
  content_type       text NOT NULL,
  size_bytes         bigint NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (supplier_bp_number, sha256)
);
