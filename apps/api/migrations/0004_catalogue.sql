-- Catalogue and search (issue 3): units, manufacturers and brands, ETIM-like classes and features,
-- the product tree, products (manufacturer articles), offers (product instances per supplier),
-- the search index and favourites. docs/catalogue-search.md explains the search design.

-- German full text with accent folding. The catalogue indexer (TypeScript) folds umlauts and
-- ae/oe/ue spellings itself before text reaches Postgres, so both sides match on every server
-- version; unaccent here only catches the remaining accents (é, ñ …).
CREATE TEXT SEARCH CONFIGURATION german_unaccent (COPY = german);
ALTER TEXT SEARCH CONFIGURATION german_unaccent
  ALTER MAPPING FOR hword, hword_part, word WITH unaccent, german_stem;

-- German sort order for "name A–Z": ICU when the server has it (embedded Postgres 18 and most
-- Postgres 15 builds do), else the libc German locale, else byte order.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_collation WHERE collprovider = 'i' AND collname = 'de-x-icu') THEN
    CREATE COLLATION catalogue_de (provider = icu, locale = 'de-DE');
  ELSIF EXISTS (SELECT 1 FROM pg_collation WHERE collname = 'de_DE.utf8') THEN
    CREATE COLLATION catalogue_de FROM "de_DE.utf8";
  ELSE
    CREATE COLLATION catalogue_de FROM "C";
  END IF;
END $$;

-- Units (UN/ECE Recommendation 20 codes). A caret marks superscript: m^2.
CREATE TABLE units (
  code              text PRIMARY KEY,
  short_description text NOT NULL,
  sort              smallint NOT NULL DEFAULT 0
);
INSERT INTO units (code, short_description, sort) VALUES
  ('C62', 'Stk', 1), ('PCE', 'Stk', 2), ('MTR', 'm', 3), ('MTK', 'm^2', 4), ('MTQ', 'm^3', 5),
  ('LTR', 'l', 6), ('KGM', 'kg', 7), ('PR', 'Paar', 8), ('SET', 'Satz', 9), ('PK', 'Pkg', 10),
  ('RO', 'Rolle', 11), ('CT', 'Karton', 12), ('CMT', 'cm', 13), ('MMT', 'mm', 14), ('DMT', 'dm', 15),
  ('CMK', 'cm^2', 16), ('DMQ', 'dm^3', 17), ('GRM', 'g', 18), ('TNE', 't', 19), ('HUR', 'h', 20),
  -- units of numeric features
  ('BAR', 'bar', 21), ('WTT', 'W', 22), ('KWT', 'kW', 23), ('VLT', 'V', 24), ('L2', 'l/min', 25),
  ('MQH', 'm^3/h', 26), ('2N', 'dB(A)', 27), ('DD', '°', 28), ('CEL', '°C', 29);

CREATE TABLE manufacturers (
  manufacturer_id    text PRIMARY KEY CHECK (manufacturer_id !~ '~'),
  name               text NOT NULL,
  -- set when the manufacturer also sells directly on the portal
  supplier_bp_number text REFERENCES business_partners(bp_number)
);

CREATE TABLE brands (
  brand_no        integer PRIMARY KEY,
  name            text NOT NULL UNIQUE,
  manufacturer_id text NOT NULL REFERENCES manufacturers(manufacturer_id)
);

CREATE TABLE etim_classes (
  class_no    integer PRIMARY KEY,
  class_id    text NOT NULL UNIQUE,
  description text NOT NULL
);

CREATE TABLE etim_features (
  feature_no  integer PRIMARY KEY,
  feature_id  text NOT NULL UNIQUE,
  description text NOT NULL,
  -- N numeric (with unit), A alphanumeric (a value from etim_values)
  kind        char(1) NOT NULL CHECK (kind IN ('N', 'A')),
  unit_code   text
);

-- Which features a class has, in a fixed slot 1–8 (the slot is the column f1…f8 of the search row).
CREATE TABLE etim_class_features (
  class_no   integer NOT NULL REFERENCES etim_classes(class_no) ON DELETE CASCADE,
  slot       smallint NOT NULL CHECK (slot BETWEEN 1 AND 8),
  feature_no integer NOT NULL REFERENCES etim_features(feature_no),
  PRIMARY KEY (class_no, slot),
  UNIQUE (class_no, feature_no)
);

CREATE TABLE etim_values (
  value_no    integer PRIMARY KEY,
  value_id    text NOT NULL UNIQUE,
  description text NOT NULL
);

-- Product tree: root SHKMARKET, nodes and leaves; SHKMARKET_10 (Aktion) and SHKMARKET_11
-- (the caller's own seller catalogue) are virtual nodes resolved by the search.
CREATE TABLE product_tree (
  node_no    integer PRIMARY KEY,
  element_id text NOT NULL UNIQUE,
  parent_no  integer REFERENCES product_tree(node_no),
  type       text NOT NULL CHECK (type IN ('root', 'node', 'leaf')),
  name       text NOT NULL,
  sort       integer NOT NULL DEFAULT 0
);

-- Maps supplier business partners to small numbers for the search rows' supplier arrays.
CREATE TABLE catalogue_supplier_numbers (
  supplier_no integer PRIMARY KEY,
  bp_number   text NOT NULL UNIQUE REFERENCES business_partners(bp_number)
);

-- A manufacturer article. product_id = manufacturer_id || '~' || manufacturer_pid.
CREATE TABLE products (
  id                          integer PRIMARY KEY,
  product_id                  text NOT NULL UNIQUE,
  manufacturer_id             text NOT NULL REFERENCES manufacturers(manufacturer_id),
  manufacturer_pid            text NOT NULL,
  -- manufacturer_pid without separators, upper case: article-number search (byte order: LIKE 'x%' uses the index)
  manufacturer_pid_norm       text COLLATE "C" NOT NULL,
  gtin                        text COLLATE "C",
  brand_no                    integer NOT NULL REFERENCES brands(brand_no),
  series                      text,
  model_number                text,
  product_name                text NOT NULL,
  product_descr               text,
  marketing_text              text,
  note_of_use                 text,
  product_type                text,
  article_number_catalogue    text,
  article_number_catalogue_norm text COLLATE "C",
  class_no                    integer REFERENCES etim_classes(class_no),
  -- feature values in class slot order (numeric value, or value_no of an alphanumeric value)
  feature_values              real[] NOT NULL DEFAULT '{}',
  commodity_group_descr       text,
  energy_efficiency_class     text,
  color                       text,
  measure_a_mm                numeric(10,1),
  measure_b_mm                numeric(10,1),
  measure_c_mm                numeric(10,1),
  weight_kg                   numeric(10,3),
  packaging_quantity          numeric(10,3),
  country_of_origin           text,
  standard_delivery_period    smallint,
  leaf_no                     integer NOT NULL REFERENCES product_tree(node_no),
  is_promotion                boolean NOT NULL DEFAULT false,
  -- product_ids of accessories and spare parts
  accessories                 text[] NOT NULL DEFAULT '{}',
  spare_parts                 text[] NOT NULL DEFAULT '{}',
  -- [{"type": "picture" | "Datenblatt" | "Montageanleitung" | "2D" | "3C", "file": "…", "description": "…"}]
  media                       jsonb NOT NULL DEFAULT '[]',
  updated_at                  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (manufacturer_id, manufacturer_pid)
);
CREATE INDEX products_gtin_idx ON products (gtin);
CREATE INDEX products_mpid_norm_idx ON products (manufacturer_pid_norm);
CREATE INDEX products_catalogue_norm_idx ON products (article_number_catalogue_norm);

-- An offer (product instance): product_instance_id = supplier_bp_number || '~' || supplier_pid.
CREATE TABLE product_offers (
  product_instance_id   text PRIMARY KEY,
  product_no            integer NOT NULL REFERENCES products(id) ON DELETE CASCADE,
  supplier_bp_number    text NOT NULL REFERENCES business_partners(bp_number),
  supplier_pid          text NOT NULL,
  supplier_pid_norm     text COLLATE "C" NOT NULL,
  -- 1 wholesaler, 2–4 manufacturer sources (ProductDataSource)
  product_data_source   smallint NOT NULL CHECK (product_data_source BETWEEN 0 AND 4),
  -- order unit; deliberately no foreign key: an unknown unit is flagged (UnitNotSupported), not rejected
  unit_code             text NOT NULL,
  net_price             numeric(12,4),
  price_basis           numeric(10,3) NOT NULL DEFAULT 1 CHECK (price_basis > 0),
  price_quantity_unit   text,
  gross_list_price      numeric(12,4),
  price_on_demand       boolean NOT NULL DEFAULT false,
  min_order_quantity    numeric(10,3) NOT NULL DEFAULT 1 CHECK (min_order_quantity > 0),
  min_order_unit        text,
  time_to_delivery_days smallint,
  note_of_use           text,
  accessories           text[] NOT NULL DEFAULT '{}',
  spare_parts           text[] NOT NULL DEFAULT '{}',
  UNIQUE (supplier_bp_number, supplier_pid)
);
CREATE INDEX product_offers_product_idx ON product_offers (product_no);
CREATE INDEX product_offers_pid_norm_idx ON product_offers (supplier_pid_norm);

-- The search index: one narrow row per product, physically ordered by tree leaf so that words of
-- one category sit on neighbouring pages. Written by the catalogue indexer, never by hand.
CREATE TABLE product_search (
  id           integer PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
  -- static "recommended" order (lower is better) and German name order
  rank         integer NOT NULL,
  name_rank    integer,
  -- weights: A name (with compound parts), B brand and series, C class/type/features, D description
  vec          tsvector NOT NULL,
  brand_no     integer NOT NULL,
  class_no     integer,
  leaf_no      integer NOT NULL,
  promo        boolean NOT NULL DEFAULT false,
  supplier_nos integer[] NOT NULL DEFAULT '{}',
  -- lowest net list price per unit over the offers, in cents
  price_cents  integer,
  f1 real, f2 real, f3 real, f4 real, f5 real, f6 real, f7 real, f8 real
);
CREATE INDEX product_search_vec_idx ON product_search USING gin (vec);
CREATE INDEX product_search_rank_idx ON product_search (rank);
CREATE INDEX product_search_name_rank_idx ON product_search (name_rank);
CREATE INDEX product_search_leaf_idx ON product_search (leaf_no);
CREATE INDEX product_search_brand_idx ON product_search (brand_no);
CREATE INDEX product_search_class_idx ON product_search (class_no);
CREATE INDEX product_search_suppliers_idx ON product_search USING gin (supplier_nos);

-- Display words for suggestions and typo correction (folded form for lookup).
CREATE TABLE search_terms (
  term        text PRIMARY KEY,
  folded      text NOT NULL,
  -- 1 word of a product name, 2 brand, 3 category, 4 series
  kind        smallint NOT NULL,
  doc_count   integer NOT NULL
);
CREATE INDEX search_terms_folded_prefix_idx ON search_terms (folded text_pattern_ops);
CREATE INDEX search_terms_folded_trgm_idx ON search_terms USING gin (folded gin_trgm_ops);

-- Bumped by every catalogue load; the API keys its search caches by it.
CREATE TABLE catalogue_state (
  id         boolean PRIMARY KEY DEFAULT true CHECK (id),
  version    bigint NOT NULL DEFAULT 0,
  products   integer NOT NULL DEFAULT 0,
  loaded_at  timestamptz
);
INSERT INTO catalogue_state (id) VALUES (true);

-- Favourites per user and business partner. No foreign key to the offer: a favourite outlives
-- its product and is then shown as unavailable from the snapshot columns.
CREATE TABLE favorite_products (
  user_id                  uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  bp_number                text NOT NULL REFERENCES business_partners(bp_number) ON DELETE CASCADE,
  product_instance_id      text NOT NULL,
  brand_name               text,
  article_number           text,
  gtin                     text,
  article_catalog_number   text,
  image_url                text,
  article_short_description text,
  created_at               timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, bp_number, product_instance_id)
);
CREATE INDEX favorite_products_instance_idx ON favorite_products (product_instance_id);
