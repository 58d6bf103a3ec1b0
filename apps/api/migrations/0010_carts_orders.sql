-- Delivery addresses, projects, carts with items and attachments, and the orders a checkout creates.
CREATE TABLE delivery_addresses (
  id             bigserial PRIMARY KEY,
  bp_number      text NOT NULL REFERENCES business_partners(bp_number),
  company_name   text NOT NULL,
  contact_person text,
  additional_info text,
  street_name    text NOT NULL,
  house_number   text NOT NULL,
  postal_code    text NOT NULL,
  city           text NOT NULL,
  phone_number   text,
  country_code   text NOT NULL DEFAULT 'DE',
  -- the partner's registered address: shown, never changed or deleted through the portal
  is_read_only   boolean NOT NULL DEFAULT false,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX delivery_addresses_bp_idx ON delivery_addresses (bp_number);

CREATE TABLE projects (
  id          bigserial PRIMARY KEY,
  bp_number   text NOT NULL REFERENCES business_partners(bp_number),
  code        text NOT NULL CHECK (char_length(code) <= 35),
  description text CHECK (char_length(description) <= 200),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX projects_bp_code_key ON projects (bp_number, lower(code));

CREATE TABLE carts (
  id                  bigserial PRIMARY KEY,
  bp_number           text NOT NULL REFERENCES business_partners(bp_number),
  name                text NOT NULL CHECK (char_length(name) <= 50),
  is_default          boolean NOT NULL DEFAULT false,
  project_id          bigint REFERENCES projects(id) ON DELETE SET NULL,
  delivery_address_id bigint REFERENCES delivery_addresses(id) ON DELETE SET NULL,
  delivery_date       date,
  created_by          uuid REFERENCES users(id),
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  -- the order the last checkout created: a repeated checkout of the emptied cart returns it
  last_order_number   text,
  last_checkout_at    timestamptz
);
CREATE UNIQUE INDEX carts_bp_name_key ON carts (bp_number, lower(name));
CREATE UNIQUE INDEX carts_one_default_per_bp ON carts (bp_number) WHERE is_default;

CREATE TABLE cart_items (
  id                  bigserial PRIMARY KEY,
  cart_id             bigint NOT NULL REFERENCES carts(id) ON DELETE CASCADE,
  product_instance_id text NOT NULL,
  supplier_bp_number  text NOT NULL REFERENCES business_partners(bp_number),
  article_number      text NOT NULL,
  quantity            numeric(14,3) NOT NULL CHECK (quantity > 0),
  project_id          bigint REFERENCES projects(id) ON DELETE SET NULL,
  delivery_date       date,
  delivery_address_id bigint REFERENCES delivery_addresses(id) ON DELETE SET NULL,
  comment             text CHECK (char_length(comment) <= 500),
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  UNIQUE (cart_id, product_instance_id)
);

CREATE TABLE cart_item_attachments (
  id           bigserial PRIMARY KEY,
  cart_item_id bigint NOT NULL REFERENCES cart_items(id) ON DELETE CASCADE,
  file_name    text NOT NULL,
  content_type text NOT NULL,
  size_bytes   integer NOT NULL,
  content      bytea NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cart_item_attachments_item_idx ON cart_item_attachments (cart_item_id);

CREATE SEQUENCE customer_order_number_seq START 100001;
CREATE SEQUENCE supplier_order_number_seq START 500001;

CREATE TABLE customer_orders (
  id                    bigserial PRIMARY KEY,
  customer_order_number text NOT NULL UNIQUE,
  bp_number             text NOT NULL REFERENCES business_partners(bp_number),
  user_id               uuid NOT NULL REFERENCES users(id),
  cart_id               bigint,
  cart_name             text,
  status_id             smallint NOT NULL DEFAULT 1 CHECK (status_id BETWEEN 1 AND 6),
  total_net             numeric(14,2) NOT NULL,
  delivery_cost_total   numeric(14,2) NOT NULL,
  dispatch_to           text,
  customer_address      jsonb NOT NULL,
  placed_at             timestamptz NOT NULL DEFAULT now(),
  modified_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX customer_orders_bp_idx ON customer_orders (bp_number, placed_at DESC);

CREATE TABLE supplier_orders (
  id                    bigserial PRIMARY KEY,
  supplier_order_number text NOT NULL UNIQUE,
  customer_order_id     bigint NOT NULL REFERENCES customer_orders(id),
  supplier_bp_number    text NOT NULL REFERENCES business_partners(bp_number),
  buyer_bp_number       text NOT NULL REFERENCES business_partners(bp_number),
  supplier_customer_number text,
  status_id             smallint NOT NULL DEFAULT 1 CHECK (status_id BETWEEN 1 AND 6),
  net_value             numeric(14,2) NOT NULL,
  confirmed_total       numeric(14,2),
  delivery_cost         numeric(14,2) NOT NULL,
  external_order_id     text,
  placed_at             timestamptz NOT NULL DEFAULT now(),
  modified_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX supplier_orders_supplier_idx ON supplier_orders (supplier_bp_number, placed_at DESC);
CREATE INDEX supplier_orders_customer_order_idx ON supplier_orders (customer_order_id);

CREATE TABLE order_lines (
  id                  bigserial PRIMARY KEY,
  supplier_order_id   bigint NOT NULL REFERENCES supplier_orders(id) ON DELETE CASCADE,
  line_no             integer NOT NULL,
  product_instance_id text NOT NULL,
  article_number      text NOT NULL,
  producer_number     text,
  manufacturer_name   text,
  name                text NOT NULL,
  description         text,
  unit_price          numeric(14,4),
  price_basis         numeric(14,3) NOT NULL DEFAULT 1,
  min_quantity        numeric(14,3) NOT NULL DEFAULT 1,
  quantity            numeric(14,3) NOT NULL,
  quantity_price      numeric(14,2),
  unit_code           text,
  price_on_request    boolean NOT NULL DEFAULT false,
  delivery_date       date,
  project_code        text,
  project_description text,
  comment             text,
  delivery_address    jsonb,
  image_url           text,
  UNIQUE (supplier_order_id, line_no)
);

CREATE TABLE order_line_attachments (
  id            bigserial PRIMARY KEY,
  order_line_id bigint NOT NULL REFERENCES order_lines(id) ON DELETE CASCADE,
  file_name     text NOT NULL,
  content_type  text NOT NULL,
  size_bytes    integer NOT NULL,
  content       bytea NOT NULL
);
CREATE INDEX order_line_attachments_line_idx ON order_line_attachments (order_line_id);
