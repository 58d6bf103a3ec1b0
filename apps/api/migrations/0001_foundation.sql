-- Foundation: business partners, users and their memberships, supplier settings,
-- configuration parameters, feedback, support requests and the mail outbox.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TABLE business_partners (
  bp_number             text PRIMARY KEY,
  name                  text NOT NULL,
  official_company_name text,
  street                text,
  house_number          text,
  postal_code           text,
  city                  text,
  country               text,
  email                 text,
  phone_number          text,
  fax_number            text,
  website               text,
  tax_number            text,
  vat_id                text,
  -- 0 none, 1 wholesaler, 2 two-tier, 3 three-tier, 4 two- and three-tier manufacturer
  organisation_type     smallint NOT NULL DEFAULT 0 CHECK (organisation_type BETWEEN 0 AND 4),
  is_supplier           boolean NOT NULL DEFAULT false,
  created_at            timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id               uuid PRIMARY KEY,
  email            text NOT NULL,
  first_name       text NOT NULL DEFAULT '',
  last_name        text NOT NULL DEFAULT '',
  role             smallint NOT NULL DEFAULT 0 CHECK (role BETWEEN 0 AND 5),
  -- scrypt hash for the embedded identity provider; null for users of an external IdP only
  password_hash    text,
  -- subject of an external identity provider, bound on first login by e-mail
  external_subject text UNIQUE,
  current_bp_number text REFERENCES business_partners(bp_number),
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE user_business_partners (
  user_id   uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  bp_number text NOT NULL REFERENCES business_partners(bp_number) ON DELETE CASCADE,
  PRIMARY KEY (user_id, bp_number)
);

-- Supplier settings (seller-staff-side.md §3, "Supplier (business partner settings)").
CREATE TABLE suppliers (
  bp_number                      text PRIMARY KEY REFERENCES business_partners(bp_number) ON DELETE CASCADE,
  supplier_status_id             smallint NOT NULL DEFAULT 2 CHECK (supplier_status_id BETWEEN 1 AND 3),
  logo_file_name                 text,
  logo_content_type              text,
  logo                           bytea,
  required_onboarding_form       boolean NOT NULL DEFAULT false,
  onboarding_form_template       bytea,
  onboarding_form_template_file_name text,
  contact_person_name            text,
  contact_person_phone           text,
  contact_person_email           text,
  gln                            text,
  headquarter_gln                text,
  in_com_protocol_id             smallint NOT NULL DEFAULT 1,
  in_data_formats                smallint[] NOT NULL DEFAULT '{1}',
  out_com_protocol_id            smallint NOT NULL DEFAULT 1,
  out_data_formats               smallint[] NOT NULL DEFAULT '{1}',
  out_email_address              text,
  out_ftp_folder                 text,
  workflow_id                    integer,
  out_as2_identifier             text,
  out_as2_url                    text,
  show_supplier_note             boolean NOT NULL DEFAULT false,
  supplier_note                  text,
  delivery_cost                  numeric(12,2) NOT NULL DEFAULT 0,
  free_delivery_threshold        numeric(12,2) NOT NULL DEFAULT 0,
  orders_summary_email           text,
  customer_onboarding_email      text,
  new_customer_onboarding_email  text,
  hide_gross_price               boolean NOT NULL DEFAULT false,
  hide_additional_info           boolean NOT NULL DEFAULT false,
  -- product data integration (ITEK): 1 active, 2 non-active
  integration_status             smallint NOT NULL DEFAULT 2,
  integration_provider           text,
  product_data_source            smallint NOT NULL DEFAULT 0,
  filter_value                   text,
  brand_name                     text,
  updated_at                     timestamptz NOT NULL DEFAULT now()
);

-- Configuration parameters; the feature settings of the spec are parameters with one value.
CREATE TABLE custom_parameters (
  key             text PRIMARY KEY,
  description     text NOT NULL DEFAULT '',
  type_id         smallint NOT NULL DEFAULT 3 CHECK (type_id BETWEEN 1 AND 5),
  max_value_count integer NOT NULL DEFAULT 1 CHECK (max_value_count >= 1),
  is_public       boolean NOT NULL DEFAULT true
);
CREATE TABLE custom_parameter_values (
  id         bigserial PRIMARY KEY,
  key        text NOT NULL REFERENCES custom_parameters(key) ON DELETE CASCADE,
  value      text NOT NULL,
  valid_from date,
  valid_to   date,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX custom_parameter_values_key_idx ON custom_parameter_values (key);

CREATE TABLE feedbacks (
  id          bigserial PRIMARY KEY,
  user_id     uuid NOT NULL REFERENCES users(id),
  bp_number   text REFERENCES business_partners(bp_number),
  is_positive boolean NOT NULL,
  comment     text,
  url         text,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE mail_outbox (
  id          bigserial PRIMARY KEY,
  to_address  text NOT NULL,
  reply_to    text,
  subject     text NOT NULL,
  body_text   text NOT NULL,
  status      text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
  attempts    integer NOT NULL DEFAULT 0,
  last_error  text,
  -- where the default transport wrote the message (.eml under DATA_DIR/mail)
  stored_as   text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  sent_at     timestamptz
);

CREATE TABLE support_requests (
  id           bigserial PRIMARY KEY,
  kind         text NOT NULL,
  user_id      uuid NOT NULL REFERENCES users(id),
  bp_number    text REFERENCES business_partners(bp_number),
  message      text NOT NULL,
  email        text NOT NULL,
  phone_number text,
  mail_id      bigint REFERENCES mail_outbox(id),
  created_at   timestamptz NOT NULL DEFAULT now()
);
