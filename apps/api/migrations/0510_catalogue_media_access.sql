-- Media a supplier's server gives out only with a token: the supplier's fallback address for its media (tried first)
-- and the bearer token (encrypted like workflow secrets), kept with the supplier's catalogue settings. A download
-- knows whether a product shows it as a picture: picture downloads accept JPEG or PNG only.
ALTER TABLE catalogue_import_settings
  ADD COLUMN media_fallback_base_url text,
  ADD COLUMN media_access_token text;

ALTER TABLE catalogue_media_downloads ADD COLUMN picture boolean NOT NULL DEFAULT false;
