-- Supplier logos and onboarding form templates go through the file storage (STORAGE_BACKEND): a new file is named
-- by its storage key and its size is kept beside it (the partner's quota counts it); files from before keep their
-- bytes in `logo` / `onboarding_form_template`. A supplier holds each file in one place only (or has none).
ALTER TABLE suppliers ADD COLUMN logo_storage_key text;
ALTER TABLE suppliers ADD COLUMN logo_size_bytes integer;
ALTER TABLE suppliers ADD COLUMN onboarding_form_template_storage_key text;
ALTER TABLE suppliers ADD COLUMN onboarding_form_template_size_bytes integer;
ALTER TABLE suppliers
  ADD CONSTRAINT suppliers_logo_in_one_place CHECK (logo IS NULL OR logo_storage_key IS NULL),
  ADD CONSTRAINT suppliers_logo_key_sized CHECK (logo_storage_key IS NULL OR logo_size_bytes IS NOT NULL),
  ADD CONSTRAINT suppliers_template_in_one_place
    CHECK (onboarding_form_template IS NULL OR onboarding_form_template_storage_key IS NULL),
  ADD CONSTRAINT suppliers_template_key_sized
    CHECK (onboarding_form_template_storage_key IS NULL OR onboarding_form_template_size_bytes IS NOT NULL);
