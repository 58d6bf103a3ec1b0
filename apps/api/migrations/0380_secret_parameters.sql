-- Parameter type 6 'Geheimnis' (secret): its values are write-only – the API never returns them, the pages show them
-- masked – and a secret is never public (GET /v1/ConfigurationValues/{key} serves public parameters only).
ALTER TABLE custom_parameters DROP CONSTRAINT IF EXISTS custom_parameters_type_id_check;
ALTER TABLE custom_parameters ADD CONSTRAINT custom_parameters_type_id_check CHECK (type_id BETWEEN 1 AND 6);

UPDATE custom_parameters SET type_id = 6, is_public = false WHERE key = 'KitchenConfiguratorClientSecret';

ALTER TABLE custom_parameters ADD CONSTRAINT custom_parameters_secret_not_public CHECK (type_id <> 6 OR NOT is_public);
