import { Writable } from 'node:stream';
import { CommunicationProtocol } from '@shk/contracts';
import type { AppDeps } from '../../http/types.ts';
import { withLockSession, type LockSession } from '../cluster/index.ts';
import {
  HostKeyMismatchError,
  openFtp,
  openSftp,
  outboundPolicy,
  workflowsService,
  type OutboundPolicy,
  type WorkflowConnection,
  type WorkflowsService,
} from '../transmission/index.ts';
import { InboundOrdrspService } from './inbound.service.ts';
import * as repo from './supplier-orders.repo.ts';

/** A supplier's inbox folder on its SFTP/FTP server. */
interface RemoteInbox {
  /** Regular files in the inbox (not the done/ folder, no hidden or temporary files). */
  list(): Promise<string[]>;
  read(name: string): Promise<Buffer>;
  /** Moves a processed file into done/ (created when missing); an existing name there gets a time suffix. */
  moveToDone(name: string): Promise<void>;
  close(): Promise<void>;
}

export interface PickupOptions {
  /** Inbox folder on the supplier's server, relative to the login directory or absolute. */
  folder: string;
  /** Poll interval. */
  everyMs: number;
}

const join = (folder: string, name: string) => `${folder}/${name}`;
const visible = (name: string) => !name.startsWith('.') && !name.endsWith('.part');

/**
 * The supplier's SFTP inbox, reached as deliveries reach it: only at an address the outbound policy allows, and only
 * when the server shows the workflow's pinned host key (none pinned yet: the key seen now is pinned unconfirmed).
 */
async function sftpInbox(
  w: WorkflowConnection,
  folder: string,
  policy: OutboundPolicy,
  workflows: WorkflowsService,
): Promise<RemoteInbox> {
  const host = w.host ?? '';
  const port = w.port ?? 22;
  const pinned = (await workflows.pinnedHostKey(w.id, host, port))?.fingerprint ?? null;
  const { client, presented } = await openSftp(w, policy, pinned);
  if (pinned === null) {
    const now = await workflows.pinFirstHostKey(w.id, host, port, presented);
    if (now !== presented) {
      await client.end().catch(() => undefined);
      throw new HostKeyMismatchError(now, presented);
    }
  }
  const done = join(folder, 'done');
  return {
    async list() {
      if (!(await client.exists(folder))) return [];
      return (await client.list(folder)).filter((f) => f.type === '-' && visible(f.name)).map((f) => f.name);
    },
    async read(name) {
      return (await client.get(join(folder, name))) as Buffer;
    },
    async moveToDone(name) {
      if (!(await client.exists(done))) await client.mkdir(done, true);
      let target = join(done, name);
      if (await client.exists(target)) target = join(done, `${name}.${Date.now()}`);
      await client.rename(join(folder, name), target);
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}

/** The supplier's FTP inbox, only at an address the outbound policy allows. */
async function ftpInbox(w: WorkflowConnection, folder: string, policy: OutboundPolicy): Promise<RemoteInbox> {
  const client = await openFtp(w, policy);
  const done = join(folder, 'done');
  return {
    async list() {
      const entries = await client.list(folder).catch(() => []);
      return entries.filter((f) => f.isFile && visible(f.name)).map((f) => f.name);
    },
    async read(name) {
      const chunks: Buffer[] = [];
      const sink = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
      });
      await client.downloadTo(sink, join(folder, name));
      return Buffer.concat(chunks);
    },
    async moveToDone(name) {
      await client.ensureDir(done); // creates and changes into it
      await client.cd('/');
      let target = join(done, name);
      if ((await client.size(target).catch(() => null)) != null) target = join(done, `${name}.${Date.now()}`);
      await client.rename(join(folder, name), target);
    },
    async close() {
      client.close();
    },
  };
}

/** The first int of the pick-up's advisory lock key (the second is the supplier's BP number). */
const PICKUP_LOCK_CLASS = 7305;

type Log = { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };

/**
 * Picks up ORDRSP files that suppliers with an SFTP or FTP inbound protocol drop into the inbox folder
 * (ORDRSP_PICKUP_FOLDER, default /ordrsp) on the server of the workflow their settings name. Every file goes
 * through InboundOrdrspService.receive (applied or rejected and kept for staff) and is then moved to done/.
 * Idempotent: a file whose name and content were already received (a crash between receiving and moving)
 * is only moved, never applied twice; an advisory lock per supplier keeps several processes apart.
 */
export class OrdrspPickup {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private readonly inbound: InboundOrdrspService;

  constructor(
    private readonly deps: Pick<AppDeps, 'pool' | 'db' | 'mail' | 'config'>,
    private readonly options: PickupOptions,
    private readonly log: Log,
  ) {
    this.inbound = new InboundOrdrspService(deps);
  }

  start() {
    const tick = () => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch((error) => this.log.warn({ err: error }, 'ORDRSP pick-up failed'))
        .finally(() => (this.running = null));
    };
    tick();
    this.timer = setInterval(tick, this.options.everyMs);
    this.timer.unref();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass over every supplier with an SFTP/FTP inbound protocol; returns the files handled per outcome. */
  async runOnce() {
    const counts = { applied: 0, rejected: 0, skipped: 0, failedSuppliers: 0 };
    const workflows = workflowsService(this.deps);
    const policy = outboundPolicy(this.deps);
    try {
      await this.pickUpAll(workflows, policy, counts);
    } finally {
      await policy.close();
    }
    return counts;
  }

  private async pickUpAll(
    workflows: WorkflowsService,
    policy: OutboundPolicy,
    counts: { applied: number; rejected: number; skipped: number; failedSuppliers: number },
  ) {
    const suppliers = await repo.pickupSuppliers(this.deps.pool);
    if (!suppliers.length) return;
    // One lock session for the pass, one supplier's lock at a time; the pick-up itself works through the pool.
    await withLockSession(this.deps.pool, 'ordrsp-pickup', async (exclusively) => {
      for (const s of suppliers) await this.pickUpSupplier(s, exclusively, workflows, policy, counts);
    });
  }

  /** Picks up one supplier's files under its pick-up lock; skipped while another process picks up the same supplier. */
  private async pickUpSupplier(
    s: Awaited<ReturnType<typeof repo.pickupSuppliers>>[number],
    exclusively: LockSession,
    workflows: WorkflowsService,
    policy: OutboundPolicy,
    counts: { applied: number; rejected: number; skipped: number; failedSuppliers: number },
  ) {
    // The key of the lock is the one older nodes take, so a rolling update keeps the processes apart.
    await exclusively([PICKUP_LOCK_CLASS, Number(s.bp_number)], async () => {
      try {
        const workflow = s.workflow_id == null ? null : await workflows.connection(Number(s.workflow_id));
        if (!workflow?.host) {
          this.log.warn({ supplier: s.bp_number }, 'ORDRSP pick-up: no workflow with a host');
          counts.failedSuppliers++;
          return;
        }
        const source = s.in_com_protocol_id === CommunicationProtocol.Ftp ? 'ftp' : 'sftp';
        const inbox =
          source === 'ftp'
            ? await ftpInbox(workflow, this.options.folder, policy)
            : await sftpInbox(workflow, this.options.folder, policy, workflows);
        try {
          for (const name of (await inbox.list()).sort()) {
            const content = await inbox.read(name);
            if (await this.inbound.seen(s.bp_number, source, name, content)) counts.skipped++;
            else {
              const result = await this.inbound.receive({
                supplierBpNumber: s.bp_number,
                source,
                fileName: name,
                content,
              });
              counts[result.outcome]++;
              if (result.outcome === 'rejected')
                this.log.warn({ supplier: s.bp_number, file: name, reason: result.reason }, 'ORDRSP rejected');
            }
            await inbox.moveToDone(name);
          }
        } finally {
          await inbox.close();
        }
      } catch (error) {
        counts.failedSuppliers++;
        this.log.warn({ err: error, supplier: s.bp_number }, 'ORDRSP pick-up failed for a supplier');
      }
    }); // false: another process is picking up this supplier's files
  }
}
