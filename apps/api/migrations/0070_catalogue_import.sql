-- Supplier catalogue imports (issue 15): BMEcat 2005 + ETIM and DATANORM 4/5 into the catalogue
-- of migration 0004. docs/catalogue-import.md explains the pipeline.

-- One row per uploaded file; written together with its pg-boss job in one transaction.
CREATE TABLE catalogue_imports (
  id                 bigserial PRIMARY KEY,
  supplier_bp_number text NOT NULL REFERENCES business_partners(bp_number),
  file_name          text NOT NULL,
  -- where the upload is kept until the import is done (under DATA_DIR)
  file_path          text NOT NULL,
  format             text,
  transaction        text,
  status             text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'InProgress', 'Completed', 'Failed')),
  read_count         integer NOT NULL DEFAULT 0,
  created_count      integer NOT NULL DEFAULT 0,
  updated_count      integer NOT NULL DEFAULT 0,
  unchanged_count    integer NOT NULL DEFAULT 0,
  deleted_count      integer NOT NULL DEFAULT 0,
  rejected_count     integer NOT NULL DEFAULT 0,
  error              text,
  attempts           integer NOT NULL DEFAULT 0,
  created_by         uuid REFERENCES users(id) ON DELETE SET NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  started_at         timestamptz,
  finished_at        timestamptz
);
CREATE INDEX catalogue_imports_supplier_idx ON catalogue_imports (supplier_bp_number, id DESC);

-- The first 1,000 rejected products of an import (position in the file, supplier article number, German reason).
CREATE TABLE catalogue_import_rejections (
  import_id  bigint NOT NULL REFERENCES catalogue_imports(id) ON DELETE CASCADE,
  position   integer NOT NULL,
  product_id text,
  reason     text NOT NULL,
  PRIMARY KEY (import_id, position)
);

-- Supplier article numbers seen by a full import (T_NEW_CATALOG, DATANORM); offers not seen are
-- withdrawn at the end. UNLOGGED: a crashed import starts again from the file and refills it.
CREATE UNLOGGED TABLE catalogue_import_seen (
  import_id    bigint NOT NULL,
  supplier_pid text COLLATE "C" NOT NULL,
  PRIMARY KEY (import_id, supplier_pid)
);

-- Offers a full import no longer contained: moved here (not deleted) so they can come back with a
-- later import; products themselves stay, and order lines keep their own copy of the article data.
CREATE TABLE catalogue_withdrawn_offers (
  product_instance_id text PRIMARY KEY,
  supplier_bp_number  text NOT NULL,
  product_no          integer NOT NULL,
  offer               jsonb NOT NULL,
  import_id           bigint REFERENCES catalogue_imports(id) ON DELETE SET NULL,
  withdrawn_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX catalogue_withdrawn_offers_supplier_idx ON catalogue_withdrawn_offers (supplier_bp_number);

-- Supplier catalogue groups (BMEcat CATALOG_GROUP_SYSTEM, DATANORM article groups) and the portal
-- tree leaf each is mapped to. No foreign key on leaf_no: the catalogue loader truncates the tree;
-- the import ignores a mapping whose leaf no longer exists.
CREATE TABLE supplier_catalogue_groups (
  supplier_bp_number text NOT NULL REFERENCES business_partners(bp_number) ON DELETE CASCADE,
  group_id           text NOT NULL,
  name               text NOT NULL,
  parent_id          text,
  leaf_no            integer,
  PRIMARY KEY (supplier_bp_number, group_id)
);

-- Offer data only imports carry: order interval, staggered prices, price validity, and a hash of
-- the article data for "unchanged" detection.
ALTER TABLE product_offers
  ADD COLUMN quantity_interval numeric(10,3) CHECK (quantity_interval IS NULL OR quantity_interval > 0),
  ADD COLUMN content_unit      text,
  ADD COLUMN price_valid_from  date,
  ADD COLUMN price_valid_to    date,
  -- [{"from": quantity, "price": net price per basis}] ascending; the base price is net_price
  ADD COLUMN price_scales      jsonb,
  ADD COLUMN import_hash       text;

-- New product numbers of imports (the generated catalogue numbers its products itself; imports
-- move this past the highest number before they start).
CREATE SEQUENCE catalogue_product_no_seq;

-- Last import per supplier, read by the supplier administration (ItekIntegrationInfo).
ALTER TABLE suppliers
  ADD COLUMN last_catalogue_import_id bigint,
  ADD COLUMN last_catalogue_import_at timestamptz;
