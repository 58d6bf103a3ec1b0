-- IDS-Connect: credentials of craftsman software, the context of one call, one-time codes, pre-cart items.

-- One login per buyer partner and user; kndnr is the partner's number, name_kunde the login name.
CREATE TABLE ids_credentials (
  bp_number     text NOT NULL REFERENCES business_partners(bp_number) ON DELETE CASCADE,
  user_id       uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  login_name    text NOT NULL CHECK (char_length(login_name) BETWEEN 1 AND 50),
  password_hash text NOT NULL,
  updated_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (bp_number, user_id)
);
CREATE UNIQUE INDEX ids_credentials_login_key ON ids_credentials (bp_number, lower(login_name));

-- What the craftsman program asked for; hook_url is stored byte for byte as received.
CREATE TABLE ids_contexts (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  bp_number     text NOT NULL REFERENCES business_partners(bp_number) ON DELETE CASCADE,
  user_id       uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  action        text NOT NULL,
  version       text NOT NULL,
  hook_url      text,
  target        text,
  search_term   text,
  gh_number     text,
  cart_xml      text,
  -- header data of the received cart (OrderInfo, Referenz blocks) returned unchanged
  cart_header   jsonb,
  moved_to_cart boolean NOT NULL DEFAULT false,
  completed_at  timestamptz,
  order_number  text,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ids_contexts_user_idx ON ids_contexts (user_id, created_at DESC);

-- Only the hash of a code is kept; used_at makes it single use.
CREATE TABLE ids_codes (
  code_hash  text PRIMARY KEY,
  context_id uuid NOT NULL REFERENCES ids_contexts(id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz
);

CREATE TABLE ids_cart_items (
  id                          bigserial PRIMARY KEY,
  context_id                  uuid NOT NULL REFERENCES ids_contexts(id) ON DELETE CASCADE,
  position_no                 integer NOT NULL,
  -- what the program sent (null fields when the position could not be read)
  article_number              text,
  gtin                        text,
  manufacturer_id             text,
  manufacturer_pid            text,
  short_name                  text,
  quantity                    numeric(15,3),
  unit                        text,
  raw_text                    text NOT NULL,
  -- RefItems / Referenz of the position, returned unchanged
  reference                   jsonb,
  -- offers that carry the article (found by article number, GTIN or manufacturer data)
  candidate_instance_ids      text[] NOT NULL DEFAULT '{}',
  matched_product_instance_id text,
  matched_supplier_bp_number  text,
  matched_article_number      text,
  matched_quantity            numeric(15,3),
  is_deleted                  boolean NOT NULL DEFAULT false,
  moved_cart_item_id          bigint,
  UNIQUE (context_id, position_no)
);
