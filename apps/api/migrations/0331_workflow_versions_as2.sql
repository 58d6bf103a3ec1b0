-- A workflow version is the whole connection a transmission's first attempt used, so that a retry sends the
-- same way: AS2 workflows also carry the partner's certificate, the encryption and the MDN mode (0330), which
-- the versions of 0320 did not copy.
ALTER TABLE workflow_versions
  ADD COLUMN as2_partner_certificate text,
  ADD COLUMN as2_encryption text NOT NULL DEFAULT 'aes256',
  ADD COLUMN as2_mdn_mode text NOT NULL DEFAULT 'sync';

-- Versions written before this migration take their workflow's AS2 settings of today (the only ones known).
UPDATE workflow_versions v
   SET as2_partner_certificate = w.as2_partner_certificate,
       as2_encryption = w.as2_encryption,
       as2_mdn_mode = w.as2_mdn_mode
  FROM workflows w
 WHERE w.id = v.workflow_id;

CREATE OR REPLACE FUNCTION workflows_record_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.name, NEW.communication_protocol_id, NEW.host, NEW.port, NEW.username, NEW.secret_kind,
      NEW.secret_encrypted, NEW.base_url, NEW.timeout_ms, NEW.as2_partner_certificate, NEW.as2_encryption,
      NEW.as2_mdn_mode) IS NOT DISTINCT FROM (OLD.name, OLD.communication_protocol_id, OLD.host, OLD.port,
      OLD.username, OLD.secret_kind, OLD.secret_encrypted, OLD.base_url, OLD.timeout_ms, OLD.as2_partner_certificate,
      OLD.as2_encryption, OLD.as2_mdn_mode) THEN
    RETURN NEW;
  END IF;
  INSERT INTO workflow_versions (workflow_id, version, name, communication_protocol_id, host, port, username,
                                 secret_kind, secret_encrypted, base_url, timeout_ms, as2_partner_certificate,
                                 as2_encryption, as2_mdn_mode)
  SELECT NEW.id, COALESCE(max(v.version), 0) + 1, NEW.name, NEW.communication_protocol_id, NEW.host, NEW.port,
         NEW.username, NEW.secret_kind, NEW.secret_encrypted, NEW.base_url, NEW.timeout_ms,
         NEW.as2_partner_certificate, NEW.as2_encryption, NEW.as2_mdn_mode
    FROM workflow_versions v WHERE v.workflow_id = NEW.id;
  RETURN NEW;
END $$;
