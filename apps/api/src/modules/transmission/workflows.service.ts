import { CommunicationProtocol, workflowMessages, type CertificateInfo } from '@shk/contracts';
import { badRequest } from '../../http/problem.ts';
import { SecretBox } from './secret-box.ts';
import { certificateInfo, normalizeCertificate } from './certificates.ts';
import * as repo from './workflows.repo.ts';
import type { WorkflowConnection } from './transmission.types.ts';
import type { Queryable } from '../../db/queryable.ts';

/** What the API shows of a workflow: never the secret, only whether one is stored. */
export interface WorkflowView {
  id: number;
  name: string;
  communicationProtocol: number;
  host: string | null;
  port: number | null;
  userName: string | null;
  baseUrl: string | null;
  timeoutMs: number;
  secretKind: 'password' | 'privateKey' | null;
  hasSecret: boolean;
  hostKey: { fingerprint: string; pinnedAt: string; confirmedAt: string | null } | null;
  as2Encryption: 'none' | 'aes128' | 'aes256';
  as2MdnMode: 'sync' | 'async';
  /** AS2: what staff check of the partner's certificate (subject, issuer, fingerprint, expiry). */
  partnerCertificate: CertificateInfo | null;
}

export interface WorkflowInput {
  name: string;
  communicationProtocol: number;
  host?: string | null;
  port?: number | null;
  userName?: string | null;
  baseUrl?: string | null;
  timeoutMs?: number;
  /** Omit to keep the stored secret; null removes it. */
  password?: string | null;
  privateKey?: string | null;
  as2Encryption?: 'none' | 'aes128' | 'aes256';
  as2MdnMode?: 'sync' | 'async';
  /** PEM text or base64 DER; omit to keep, null removes it. */
  partnerCertificate?: string | null;
}

/** Encryption and signed MDNs need the partner's certificate: an AS2 workflow without one could send nothing. */
const needsCertificate = () =>
  badRequest(workflowMessages.as2NeedsCertificate, undefined, [
    { field: 'body.partnerCertificate', message: workflowMessages.as2NeedsCertificate },
  ]);

const view = (r: repo.WorkflowRow, key: repo.HostKeyRow | null = null): WorkflowView => ({
  id: r.id,
  name: r.name,
  communicationProtocol: r.communication_protocol_id,
  host: r.host,
  port: r.port,
  userName: r.username,
  baseUrl: r.base_url,
  timeoutMs: r.timeout_ms,
  secretKind: r.secret_kind,
  hasSecret: r.secret_encrypted != null,
  hostKey: key
    ? {
        fingerprint: key.fingerprint,
        pinnedAt: new Date(key.pinned_at).toISOString(),
        confirmedAt: key.confirmed_at ? new Date(key.confirmed_at).toISOString() : null,
      }
    : null,
  as2Encryption: r.as2_encryption,
  as2MdnMode: r.as2_mdn_mode,
  partnerCertificate: r.as2_partner_certificate ? certificateInfo(r.as2_partner_certificate) : null,
});

/** The SSH port of a connection (the pin is per host and port). */
export const sshPort = (w: { port: number | null }) => w.port ?? 22;

/**
 * Connection profiles (workflows) for SFTP, AS2, FTP, HTTP and API transmission. Exported for the
 * back-office admin screen: list/get/create/update/remove work on views without secrets; `connection`
 * is the only way to the decrypted secret and is used by the transmission worker alone.
 */
export class WorkflowsService {
  constructor(
    private readonly db: Queryable,
    private readonly box: SecretBox,
  ) {}

  async list(protocolId?: number): Promise<WorkflowView[]> {
    const rows = await repo.listWorkflows(this.db, protocolId);
    const keys = await repo.hostKeysOfWorkflows(
      this.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => view(r, keys.get(r.id) ?? null));
  }

  async get(id: number): Promise<WorkflowView | null> {
    const row = await repo.findWorkflow(this.db, id);
    return row ? this.withHostKey(row, this.db) : null;
  }

  async create(input: WorkflowInput, client: Queryable = this.db): Promise<WorkflowView> {
    const write = this.toWrite(input);
    if (input.communicationProtocol === CommunicationProtocol.As2 && !write.as2PartnerCertificate)
      throw needsCertificate();
    return this.withHostKey(await repo.insertWorkflow(client, write), client);
  }

  async update(id: number, input: WorkflowInput, client: Queryable = this.db): Promise<WorkflowView | null> {
    const write = this.toWrite(input);
    if (input.communicationProtocol === CommunicationProtocol.As2) {
      // Omitted keeps the stored certificate; a profile switched to AS2 has none to keep (unknown id: 404 below).
      const stored = write.as2PartnerCertificate === undefined ? await repo.findWorkflow(client, id) : null;
      if (write.as2PartnerCertificate === null || (stored && !stored.as2_partner_certificate)) throw needsCertificate();
    }
    const row = await repo.updateWorkflow(client, id, write);
    return row ? this.withHostKey(row, client) : null;
  }

  private async withHostKey(row: repo.WorkflowRow, client: Queryable) {
    return view(row, (await repo.hostKeysOfWorkflows(client, [row.id])).get(row.id) ?? null);
  }

  /** The host key pinned for a workflow's target (null: none yet). */
  pinnedHostKey(workflowId: number, host: string, port: number) {
    return repo.findHostKey(this.db, workflowId, host, port);
  }

  /** Trust on first use: a delivery that meets a server with nothing pinned pins the key it saw (unconfirmed). */
  pinFirstHostKey(workflowId: number, host: string, port: number, fingerprint: string) {
    return repo.pinHostKeyIfNone(this.db, workflowId, host, port, fingerprint);
  }

  /** Staff confirm the fingerprint of the workflow's current host and port (or accept a changed key). */
  async confirmHostKey(workflowId: number, fingerprint: string, confirmedBy: string): Promise<WorkflowView | null> {
    const row = await repo.findWorkflow(this.db, workflowId);
    if (!row) return null;
    await repo.confirmHostKey(this.db, workflowId, row.host ?? '', sshPort(row), fingerprint, confirmedBy);
    return this.withHostKey(row, this.db);
  }

  /** The connection of a stored workflow version (what a transmission's first attempt used). */
  async versionConnection(versionId: number): Promise<(WorkflowConnection & { version: number }) | null> {
    const row = await repo.findWorkflowVersion(this.db, versionId);
    return row ? { ...this.connectionOf(row), version: row.version } : null;
  }

  /** Refuses (returns the suppliers) while suppliers still name the workflow. */
  async remove(id: number): Promise<{ deleted: boolean; usedBy: string[] }> {
    const usedBy = await repo.suppliersUsingWorkflow(this.db, id);
    if (usedBy.length) return { deleted: false, usedBy };
    return { deleted: await repo.deleteWorkflow(this.db, id), usedBy: [] };
  }

  async connection(id: number, client: Queryable = this.db): Promise<WorkflowConnection | null> {
    const row = await repo.findWorkflow(client, id);
    return row ? this.connectionOf(row) : null;
  }

  private connectionOf(row: repo.WorkflowRow): WorkflowConnection {
    const secret = row.secret_encrypted ? this.box.decrypt(row.secret_encrypted) : null;
    return {
      id: row.id,
      name: row.name,
      protocolId: row.communication_protocol_id,
      host: row.host,
      port: row.port,
      username: row.username,
      password: row.secret_kind === 'password' ? secret : null,
      privateKey: row.secret_kind === 'privateKey' ? secret : null,
      baseUrl: row.base_url,
      timeoutMs: row.timeout_ms,
      as2:
        row.communication_protocol_id === CommunicationProtocol.As2
          ? {
              partnerCertificate: row.as2_partner_certificate,
              encryption: row.as2_encryption,
              mdnMode: row.as2_mdn_mode,
            }
          : null,
    };
  }

  private toWrite(input: WorkflowInput): repo.WorkflowWrite {
    const write: repo.WorkflowWrite = {
      name: input.name,
      communicationProtocolId: input.communicationProtocol,
      host: input.host,
      port: input.port,
      username: input.userName,
      baseUrl: input.baseUrl,
      timeoutMs: input.timeoutMs,
      as2Encryption: input.as2Encryption,
      as2MdnMode: input.as2MdnMode,
    };
    if (input.partnerCertificate === null) write.as2PartnerCertificate = null;
    else if (input.partnerCertificate !== undefined) {
      const pem = normalizeCertificate(input.partnerCertificate);
      if (!pem)
        throw badRequest(workflowMessages.certificateUnreadable, undefined, [
          { field: 'body.partnerCertificate', message: workflowMessages.certificateUnreadable },
        ]);
      write.as2PartnerCertificate = pem;
    }
    if (input.privateKey !== undefined && input.privateKey !== null) {
      write.secretKind = 'privateKey';
      write.secretEncrypted = this.box.encrypt(input.privateKey);
    } else if (input.password !== undefined) {
      write.secretKind = input.password === null ? null : 'password';
      write.secretEncrypted = input.password === null ? null : this.box.encrypt(input.password);
    }
    return write;
  }
}
