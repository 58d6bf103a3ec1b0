-- Delivery hardening (docs/transmission.md): every saved state of a connection profile is kept as a
-- version, a transmission records the channel (supplier settings + workflow version) of its first attempt
-- so retries and resends never switch channels, and SFTP host keys are pinned per workflow and target.

-- Immutable copies of a workflow's connection, one per save that changed it (written by the trigger
-- below, so every writer – service, seed, operator SQL – produces a version).
CREATE TABLE workflow_versions (
  id                        bigserial PRIMARY KEY,
  workflow_id               integer NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  version                   integer NOT NULL,
  name                      text NOT NULL,
  communication_protocol_id smallint NOT NULL,
  host                      text,
  port                      integer,
  username                  text,
  secret_kind               text,
  secret_encrypted          text,
  base_url                  text,
  timeout_ms                integer NOT NULL,
  created_at                timestamptz NOT NULL DEFAULT now(),
  UNIQUE (workflow_id, version)
);

CREATE FUNCTION workflows_record_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (NEW.name, NEW.communication_protocol_id, NEW.host, NEW.port, NEW.username, NEW.secret_kind,
      NEW.secret_encrypted, NEW.base_url, NEW.timeout_ms) IS NOT DISTINCT FROM (OLD.name, OLD.communication_protocol_id,
      OLD.host, OLD.port, OLD.username, OLD.secret_kind, OLD.secret_encrypted, OLD.base_url, OLD.timeout_ms) THEN
    RETURN NEW;
  END IF;
  INSERT INTO workflow_versions (workflow_id, version, name, communication_protocol_id, host, port, username,
                                 secret_kind, secret_encrypted, base_url, timeout_ms)
  SELECT NEW.id, COALESCE(max(v.version), 0) + 1, NEW.name, NEW.communication_protocol_id, NEW.host, NEW.port,
         NEW.username, NEW.secret_kind, NEW.secret_encrypted, NEW.base_url, NEW.timeout_ms
    FROM workflow_versions v WHERE v.workflow_id = NEW.id;
  RETURN NEW;
END $$;

CREATE TRIGGER workflows_version AFTER INSERT OR UPDATE ON workflows
  FOR EACH ROW EXECUTE FUNCTION workflows_record_version();

INSERT INTO workflow_versions (workflow_id, version, name, communication_protocol_id, host, port, username,
                               secret_kind, secret_encrypted, base_url, timeout_ms, created_at)
SELECT id, 1, name, communication_protocol_id, host, port, username, secret_kind, secret_encrypted, base_url,
       timeout_ms, updated_at
  FROM workflows;

-- The channel of the first attempt: the supplier's outbound settings then (protocol, formats, addresses,
-- folder, AS2) and the workflow version. NULL until the first claim; 'Erneut senden' with the current
-- settings clears it.
ALTER TABLE supplier_order_transmissions
  ADD COLUMN channel jsonb,
  ADD COLUMN workflow_version_id bigint REFERENCES workflow_versions(id) ON DELETE SET NULL,
  ADD COLUMN channel_recorded_at timestamptz;

-- Pinned SSH host keys (SHA256 fingerprints as ssh-keygen -l prints them) per workflow and target.
-- confirmed_at is set when staff confirmed the fingerprint; a key first seen by a delivery is pinned
-- unconfirmed (trust on first use) and shown for confirmation.
CREATE TABLE workflow_host_keys (
  workflow_id  integer NOT NULL REFERENCES workflows(id) ON DELETE CASCADE,
  host         text NOT NULL,
  port         integer NOT NULL,
  fingerprint  text NOT NULL,
  pinned_at    timestamptz NOT NULL DEFAULT now(),
  confirmed_at timestamptz,
  confirmed_by text,
  PRIMARY KEY (workflow_id, host, port)
);
