import type { Queryable } from '../../db/queryable.ts';

export interface WorkflowRow {
  id: number;
  name: string;
  communication_protocol_id: number;
  host: string | null;
  port: number | null;
  username: string | null;
  secret_kind: 'password' | 'privateKey' | null;
  secret_encrypted: string | null;
  base_url: string | null;
  timeout_ms: number;
  as2_partner_certificate: string | null;
  as2_encryption: 'none' | 'aes128' | 'aes256';
  as2_mdn_mode: 'sync' | 'async';
}

export interface WorkflowWrite {
  name: string;
  communicationProtocolId: number;
  host?: string | null;
  port?: number | null;
  username?: string | null;
  secretKind?: 'password' | 'privateKey' | null;
  /** Already encrypted (the service seals it). */
  secretEncrypted?: string | null;
  baseUrl?: string | null;
  timeoutMs?: number;
  as2Encryption?: 'none' | 'aes128' | 'aes256';
  as2MdnMode?: 'sync' | 'async';
  /** PEM; only replaced when passed (null removes it). */
  as2PartnerCertificate?: string | null;
}

const columns =
  'id, name, communication_protocol_id, host, port, username, secret_kind, secret_encrypted, base_url, timeout_ms, as2_partner_certificate, as2_encryption, as2_mdn_mode';

export async function listWorkflows(client: Queryable, protocolId?: number): Promise<WorkflowRow[]> {
  const { rows } = await client.query(
    `SELECT ${columns} FROM workflows WHERE ($1::smallint IS NULL OR communication_protocol_id = $1) ORDER BY name`,
    [protocolId ?? null],
  );
  return rows;
}

export async function findWorkflow(client: Queryable, id: number): Promise<WorkflowRow | null> {
  const { rows } = await client.query(`SELECT ${columns} FROM workflows WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function insertWorkflow(client: Queryable, w: WorkflowWrite): Promise<WorkflowRow> {
  const { rows } = await client.query(
    `INSERT INTO workflows (name, communication_protocol_id, host, port, username, secret_kind, secret_encrypted, base_url, timeout_ms,
                            as2_partner_certificate, as2_encryption, as2_mdn_mode)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, COALESCE($9, 15000), $10, COALESCE($11, 'aes256'), COALESCE($12, 'sync')) RETURNING ${columns}`,
    [
      w.name,
      w.communicationProtocolId,
      w.host ?? null,
      w.port ?? null,
      w.username ?? null,
      w.secretKind ?? null,
      w.secretEncrypted ?? null,
      w.baseUrl ?? null,
      w.timeoutMs ?? null,
      w.as2PartnerCertificate ?? null,
      w.as2Encryption ?? null,
      w.as2MdnMode ?? null,
    ],
  );
  return rows[0];
}

/** Updates the given fields; a secret is only replaced when `secretEncrypted` is passed. */
export async function updateWorkflow(client: Queryable, id: number, w: WorkflowWrite): Promise<WorkflowRow | null> {
  const { rows } = await client.query(
    `UPDATE workflows SET name = $2, communication_protocol_id = $3, host = $4, port = $5, username = $6, base_url = $7,
            timeout_ms = COALESCE($8, timeout_ms),
            secret_kind = CASE WHEN $9::boolean THEN $10 ELSE secret_kind END,
            secret_encrypted = CASE WHEN $9::boolean THEN $11 ELSE secret_encrypted END,
            as2_partner_certificate = CASE WHEN $12::boolean THEN $13 ELSE as2_partner_certificate END,
            as2_encryption = COALESCE($14, as2_encryption), as2_mdn_mode = COALESCE($15, as2_mdn_mode), updated_at = now()
      WHERE id = $1 RETURNING ${columns}`,
    [
      id,
      w.name,
      w.communicationProtocolId,
      w.host ?? null,
      w.port ?? null,
      w.username ?? null,
      w.baseUrl ?? null,
      w.timeoutMs ?? null,
      w.secretEncrypted !== undefined,
      w.secretKind ?? null,
      w.secretEncrypted ?? null,
      w.as2PartnerCertificate !== undefined,
      w.as2PartnerCertificate ?? null,
      w.as2Encryption ?? null,
      w.as2MdnMode ?? null,
    ],
  );
  return rows[0] ?? null;
}

export async function deleteWorkflow(client: Queryable, id: number): Promise<boolean> {
  const { rowCount } = await client.query('DELETE FROM workflows WHERE id = $1', [id]);
  return rowCount === 1;
}

export async function suppliersUsingWorkflow(client: Queryable, id: number): Promise<string[]> {
  const { rows } = await client.query<{ bp_number: string }>(
    'SELECT bp_number FROM suppliers WHERE workflow_id = $1 ORDER BY bp_number',
    [id],
  );
  return rows.map((r) => r.bp_number);
}

export interface HostKeyRow {
  fingerprint: string;
  pinned_at: Date;
  confirmed_at: Date | null;
}

export async function findHostKey(
  client: Queryable,
  workflowId: number,
  host: string,
  port: number,
): Promise<HostKeyRow | null> {
  const { rows } = await client.query<HostKeyRow>(
    'SELECT fingerprint, pinned_at, confirmed_at FROM workflow_host_keys WHERE workflow_id = $1 AND host = $2 AND port = $3',
    [workflowId, host, port],
  );
  return rows[0] ?? null;
}

/** Pins a first-seen key unless one is pinned already; returns the key pinned now. */
export async function pinHostKeyIfNone(
  client: Queryable,
  workflowId: number,
  host: string,
  port: number,
  fingerprint: string,
): Promise<string> {
  await client.query(
    `INSERT INTO workflow_host_keys (workflow_id, host, port, fingerprint) VALUES ($1, $2, $3, $4)
     ON CONFLICT (workflow_id, host, port) DO NOTHING`,
    [workflowId, host, port, fingerprint],
  );
  return (await findHostKey(client, workflowId, host, port))!.fingerprint;
}

/** Staff confirmed (or accepted a new) fingerprint: it replaces whatever was pinned. */
export async function confirmHostKey(
  client: Queryable,
  workflowId: number,
  host: string,
  port: number,
  fingerprint: string,
  confirmedBy: string,
) {
  await client.query(
    `INSERT INTO workflow_host_keys (workflow_id, host, port, fingerprint, confirmed_at, confirmed_by) VALUES ($1, $2, $3, $4, now(), $5)
     ON CONFLICT (workflow_id, host, port) DO UPDATE
       SET fingerprint = EXCLUDED.fingerprint, confirmed_at = now(), confirmed_by = EXCLUDED.confirmed_by,
           pinned_at = CASE WHEN workflow_host_keys.fingerprint = EXCLUDED.fingerprint THEN workflow_host_keys.pinned_at ELSE now() END`,
    [workflowId, host, port, fingerprint, confirmedBy],
  );
}

export interface WorkflowVersionRow extends WorkflowRow {
  workflow_id: number;
  version: number;
}

/** A stored version of a workflow (the connection a transmission's first attempt used). */
export async function findWorkflowVersion(client: Queryable, versionId: number): Promise<WorkflowVersionRow | null> {
  const { rows } = await client.query(
    `SELECT v.workflow_id AS id, v.workflow_id, v.version, v.name, v.communication_protocol_id, v.host, v.port, v.username,
            v.secret_kind, v.secret_encrypted, v.base_url, v.timeout_ms, v.as2_partner_certificate, v.as2_encryption,
            v.as2_mdn_mode
       FROM workflow_versions v WHERE v.id = $1`,
    [versionId],
  );
  return rows[0] ?? null;
}

/** The pinned keys of the workflows' own host and port (SFTP default port 22). */
export async function hostKeysOfWorkflows(client: Queryable, ids: number[]): Promise<Map<number, HostKeyRow>> {
  const { rows } = await client.query<HostKeyRow & { workflow_id: number }>(
    `SELECT k.workflow_id, k.fingerprint, k.pinned_at, k.confirmed_at
       FROM workflows w JOIN workflow_host_keys k ON k.workflow_id = w.id AND k.host = w.host AND k.port = COALESCE(w.port, 22)
      WHERE w.id = ANY($1::int[])`,
    [ids],
  );
  return new Map(rows.map((r) => [r.workflow_id, r]));
}
