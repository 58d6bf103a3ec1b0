-- The return page (/ids/return/{code}): the browser opens it on our origin, it posts the cart to the
-- hook URL. The code is kept as a hash, single use, short-lived.
ALTER TABLE ids_contexts
  ADD COLUMN return_html text,
  ADD COLUMN return_code_hash text,
  ADD COLUMN return_expires_at timestamptz;
CREATE UNIQUE INDEX ids_contexts_return_code_key ON ids_contexts (return_code_hash) WHERE return_code_hash IS NOT NULL;
