import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { supplierOrderMessages as M } from '@shk/contracts';
import type { AppDeps } from '../../http/types.ts';
import { HttpProblem, conflict, notFound } from '../../http/problem.ts';
import { applyConfirmation, enqueueConfirmationMail, rejectionBody } from './confirmation.ts';
import { OrdrspError, parseOrdrsp, withoutControlCharacters } from './ordrsp.ts';
import * as repo from './supplier-orders.repo.ts';
import { SupplierOrdersService } from './supplier-orders.service.ts';

const scrypt = promisify(scryptCb) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;

export async function hashSecret(secret: string) {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${(await scrypt(secret, salt, 32)).toString('base64')}`;
}

async function secretMatches(secret: string, stored: string) {
  const [, salt, hash] = stored.split('$');
  if (!salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64'), expected.length);
  return timingSafeEqual(actual, expected);
}

export interface InboundFile {
  supplierBpNumber: string;
  source: 'http' | 'sftp' | 'ftp';
  fileName: string | null;
  content: Buffer;
}

export type InboundResult = { outcome: 'applied'; orderNumber: string } | { outcome: 'rejected'; reason: string };

/**
 * Inbound order responses (ORDRSP) of a supplier, from the HTTP endpoint or a file picked up from
 * SFTP/FTP. Applied in one transaction with its log row; a rejected file (malformed, unknown order,
 * rule violated) changes nothing and is kept with its reason in inbound_order_responses for staff.
 */
export class InboundOrdrspService {
  private readonly orders: SupplierOrdersService;

  constructor(private readonly deps: Pick<AppDeps, 'pool' | 'db' | 'mail' | 'config'>) {
    this.orders = new SupplierOrdersService(deps);
  }

  /** The supplier whose Basic-auth credentials these are, or null. */
  async authenticate(username: string, secret: string): Promise<string | null> {
    const credential = await repo.inboundCredential(this.deps.pool, username);
    if (!credential || !(await secretMatches(secret, credential.secret_hash))) return null;
    return credential.supplier_bp_number;
  }

  async setCredentials(supplierBpNumber: string, username: string, secret: string) {
    await repo.upsertInboundCredential(this.deps.pool, supplierBpNumber, username, await hashSecret(secret));
  }

  /**
   * Administrators set a supplier's inbound credentials: 404 for an unknown supplier, 409 when another
   * supplier already uses the username. The password is stored only as a scrypt hash and never returned.
   */
  async setCredentialsChecked(supplierBpNumber: string, username: string, secret: string) {
    if (!(await repo.supplierExists(this.deps.pool, supplierBpNumber))) throw notFound(M.supplierNotFound);
    const owner = await repo.inboundUsernameOwner(this.deps.pool, username);
    if (owner && owner !== supplierBpNumber) throw conflict(M.inboundUsernameTaken);
    await this.setCredentials(supplierBpNumber, username, secret);
    return this.credentialsOf(supplierBpNumber);
  }

  async credentialsOf(supplierBpNumber: string) {
    if (!(await repo.supplierExists(this.deps.pool, supplierBpNumber))) throw notFound(M.supplierNotFound);
    const row = await repo.inboundCredentialOf(this.deps.pool, supplierBpNumber);
    return {
      supplierBpNumber,
      username: row?.username ?? null,
      updatedAt: row ? new Date(row.created_at).toISOString() : null,
    };
  }

  /** Staff: received order responses, rejected ones with their reason. */
  async list(q: {
    outcome: 'applied' | 'rejected' | 'all';
    supplierBpNumber?: string;
    page: number;
    pageSize: number;
  }) {
    const { rows, total } = await repo.listInbound(this.deps.pool, {
      outcome: q.outcome === 'all' ? null : q.outcome,
      supplierBpNumber: q.supplierBpNumber ?? null,
      page: q.page,
      pageSize: q.pageSize,
    });
    return {
      items: rows.map((r) => ({
        id: Number(r.id),
        supplierBpNumber: r.supplier_bp_number,
        supplierName: r.supplier_name,
        source: r.source,
        fileName: r.file_name,
        supplierOrderNumber: r.supplier_order_number,
        outcome: r.outcome,
        reason: r.reason,
        size: Number(r.size),
        receivedAt: new Date(r.received_at).toISOString(),
      })),
      currentPage: q.page,
      pageSize: q.pageSize,
      totalCount: total,
      totalPages: Math.ceil(total / q.pageSize),
    };
  }

  async content(id: number) {
    const row = await repo.inboundContent(this.deps.pool, id);
    if (!row) throw notFound(M.inboundResponseNotFound);
    return { fileName: row.file_name ?? `ORDRSP_${id}.edi`, content: row.content };
  }

  /** Whether a picked-up file was already received (the SFTP/FTP pick-up never applies a file twice). */
  seen(supplierBpNumber: string, source: 'sftp' | 'ftp', fileName: string, content: Buffer) {
    return repo.inboundSeen(this.deps.pool, supplierBpNumber, source, fileName, content);
  }

  async receive(file: InboundFile): Promise<InboundResult> {
    let orderNumber: string | null = null;
    try {
      const parsed = parseOrdrsp(file.content);
      orderNumber = parsed.orderNumber;
      await this.orders.inTransaction(async (client, afterCommit) => {
        // Scoped to the sending supplier: another supplier's order number counts as unknown.
        const order = await repo.lockOrder(client, parsed.orderNumber, file.supplierBpNumber);
        if (!order) throw new OrdrspError(`Unbekannte Bestellnummer ${parsed.orderNumber}.`);
        const body = parsed.rejectsOrder ? await rejectionBody(client, order.id) : parsed.body;
        await applyConfirmation(client, order, parsed.statusId, body, 'ordrsp');
        await repo.recordInbound(client, { ...this.row(file, orderNumber), outcome: 'applied', reason: null });
        const mailId = await enqueueConfirmationMail(client, this.deps, order, parsed.statusId);
        if (mailId != null) afterCommit(() => this.deps.mail.dispatch([mailId]));
      });
      return { outcome: 'applied', orderNumber: parsed.orderNumber };
    } catch (error) {
      if (!(error instanceof OrdrspError) && !(error instanceof HttpProblem)) throw error;
      const reason = withoutControlCharacters(error instanceof HttpProblem ? error.title : error.message);
      await repo.recordInbound(this.deps.pool, { ...this.row(file, orderNumber), outcome: 'rejected', reason });
      return { outcome: 'rejected', reason };
    }
  }

  private row(file: InboundFile, orderNumber: string | null) {
    return {
      supplierBpNumber: file.supplierBpNumber,
      source: file.source,
      fileName: file.fileName,
      content: file.content,
      orderNumber,
    };
  }
}
