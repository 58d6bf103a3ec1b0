-- The staff supplier search matches the name or the partner number by substring: with a trigram index on
-- both, PostgreSQL can combine them (BitmapOr) instead of scanning every partner.
CREATE INDEX IF NOT EXISTS business_partners_bp_trgm_idx ON business_partners USING gin (bp_number gin_trgm_ops);
