import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type pg from 'pg';
import type { Queryable } from '../../db/queryable.ts';
import { runExclusively } from '../cluster/index.ts';
import type { Jobs } from '../jobs/index.ts';
import * as repo from './mail.repo.ts';
import type { OutgoingMail } from './mail.repo.ts';

export type { OutgoingMail } from './mail.repo.ts';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** What a transport delivers: the stored mail plus a stable Message-ID and, for order mails, attachments. */
export interface DeliverableMail extends OutgoingMail {
  id: number | string;
  from: string;
  messageId?: string;
  attachments?: MailAttachment[];
}

/**
 * How a mail leaves the system. Default: an .eml file under DATA_DIR/mail (readable by tests
 * and by a developer); SMTP when SMTP_URL is set.
 */
export interface MailTransport {
  deliver(mail: DeliverableMail): Promise<string | null>;
}

export function createFileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(mail) {
      const info = await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        replyTo: mail.replyTo ?? undefined,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        attachments: mail.attachments,
      });
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(mail.id).replace(/[^\w.-]/g, '_')}.eml`,
      );
      fs.writeFileSync(file, info.message as Buffer);
      return file;
    },
  };
}

export function createSmtpTransport(url: string): MailTransport {
  // Pooled connections: order transmission sends many mails at once; a URL's own pool= setting wins.
  const transporter: Transporter = nodemailer.createTransport({ pool: true, maxConnections: 5, url });
  return {
    async deliver(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        replyTo: mail.replyTo ?? undefined,
        subject: mail.subject,
        text: mail.text,
        messageId: mail.messageId,
        attachments: mail.attachments,
      });
      return null;
    },
  };
}

export const MAIL_QUEUE = 'mail.send';

/** A pending mail without a live job after this long was lost between commit and dispatch (or by a crash). */
const SWEEP_AFTER_MS = 30_000;
const SWEEP_EVERY_MS = 15_000;

/** Stable per outbox row: a redelivery after a crash between SMTP accept and our update carries the same id. */
export const mailMessageId = (id: number, from: string) =>
  `<mail-${id}@${/@([^>\s]+)/.exec(from)?.[1] ?? 'shk-bestellportal.example'}>`;

/** Mails are written to the outbox in the caller's transaction and delivered by a background job. */
export class MailService {
  constructor(
    private readonly pool: pg.Pool,
    private readonly jobs: Jobs,
    private readonly transport: MailTransport,
    private readonly from: string,
  ) {
    jobs.register<{ id: number }>(MAIL_QUEUE, ({ id }, attempt) => this.deliver(id, attempt), { concurrency: 4 });
  }

  private sweeper: NodeJS.Timeout | null = null;

  /** Starts the sweeper (at once and periodically): the mail sweeper entry of the lifecycle list (lifecycle.ts). */
  startSweeper() {
    if (this.sweeper) return;
    const run = () => this.sweep().catch(() => undefined);
    void run();
    this.sweeper = setInterval(run, SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  stopSweeper() {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }

  /**
   * Requeues pending mails that have no queued, retrying or running job (the process died between the
   * commit and dispatch, or the job was lost). Delivery skips sent rows, so a requeue never sends twice.
   * One node sweeps at a time (cluster lock): two sweeping together would both find the same mail without a job
   * and queue it twice, and its two jobs could run at the same moment.
   */
  async sweep(olderThanMs = SWEEP_AFTER_MS): Promise<number> {
    let requeued = 0;
    await runExclusively(this.pool, 'mail-sweep', async () => {
      const ids = await repo.findStalePending(this.pool, olderThanMs);
      const live = await this.jobs.liveJobKeys(MAIL_QUEUE, 'id', ids);
      const lost = ids.filter((id) => !live.has(String(id)));
      await this.dispatch(lost);
      requeued = lost.length;
    });
    return requeued;
  }

  /** Stores the mail (optionally inside an open transaction) and returns its outbox id. */
  async enqueue(mail: OutgoingMail, client: Queryable = this.pool): Promise<number> {
    return repo.insertPending(client, mail);
  }

  /** Hands stored mails to the job queue; call after the transaction that enqueued them committed. */
  async dispatch(ids: number[]) {
    // Delivery is idempotent (a sent mail is skipped), so a batch insert without singleton keys is safe.
    if (!ids.length) return;
    await this.jobs.sendMany(
      MAIL_QUEUE,
      ids.map((id) => ({ id })),
    );
    await repo.markDispatched(this.pool, ids);
  }

  /**
   * Hands a mail straight to the transport and records it as sent: for callers that keep their own
   * outbox and retries (order transmission by e-mail). Returns where the file transport stored it.
   */
  async deliverDirect(mail: Omit<DeliverableMail, 'from'>): Promise<string | null> {
    const storedAs = await this.transport.deliver({ ...mail, from: this.from });
    // Recorded as sent, so the outbox stays the one list of every mail that left the portal.
    await repo.insertSent(this.pool, mail, storedAs);
    return storedAs;
  }

  async send(mail: OutgoingMail): Promise<number> {
    const id = await this.enqueue(mail);
    await this.dispatch([id]);
    return id;
  }

  private async deliver(id: number, attempt: { retryCount: number; retryLimit: number }) {
    const mail = await repo.findMail(this.pool, id);
    if (!mail || mail.status === 'sent') return;
    try {
      const storedAs = await this.transport.deliver({
        id,
        from: this.from,
        to: mail.to_address,
        replyTo: mail.reply_to,
        subject: mail.subject,
        text: mail.body_text,
        messageId: mailMessageId(id, this.from),
      });
      await repo.markSent(this.pool, id, storedAs, mailMessageId(id, this.from));
    } catch (error) {
      // After the last retry the row is 'failed' (kept with its error) so the sweeper leaves it alone.
      const last = attempt.retryCount >= attempt.retryLimit;
      await repo.recordFailure(this.pool, id, String(error), last);
      throw error; // pg-boss retries with backoff
    }
  }
}
