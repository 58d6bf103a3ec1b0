import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type pg from 'pg';
import type { Queryable } from '../../db/queryable.ts';
import type { Jobs } from '../jobs/jobs.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string | null;
}

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

  /** Starts the sweeper (at once and periodically); called when the app is ready. */
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
   */
  async sweep(olderThanMs = SWEEP_AFTER_MS): Promise<number> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM mail_outbox WHERE status = 'pending' AND COALESCE(dispatched_at, created_at) < now() - make_interval(secs => $1::float8 / 1000)
        ORDER BY id LIMIT 1000`,
      [olderThanMs],
    );
    const ids = rows.map((r) => Number(r.id));
    const live = await this.jobs.liveJobKeys(MAIL_QUEUE, 'id', ids);
    const lost = ids.filter((id) => !live.has(String(id)));
    await this.dispatch(lost);
    return lost.length;
  }

  /** Stores the mail (optionally inside an open transaction) and returns its outbox id. */
  async enqueue(mail: OutgoingMail, client: Queryable = this.pool): Promise<number> {
    const { rows } = await client.query<{ id: number }>(
      'INSERT INTO mail_outbox (to_address, reply_to, subject, body_text) VALUES ($1, $2, $3, $4) RETURNING id',
      [mail.to, mail.replyTo ?? null, mail.subject, mail.text],
    );
    return rows[0].id;
  }

  /** Hands stored mails to the job queue; call after the transaction that enqueued them committed. */
  async dispatch(ids: number[]) {
    // Delivery is idempotent (a sent mail is skipped), so a batch insert without singleton keys is safe.
    if (!ids.length) return;
    await this.jobs.sendMany(
      MAIL_QUEUE,
      ids.map((id) => ({ id })),
    );
    await this.pool.query('UPDATE mail_outbox SET dispatched_at = now() WHERE id = ANY($1::bigint[])', [ids]);
  }

  /**
   * Hands a mail straight to the transport and records it as sent: for callers that keep their own
   * outbox and retries (order transmission by e-mail). Returns where the file transport stored it.
   */
  async deliverDirect(mail: Omit<DeliverableMail, 'from'>): Promise<string | null> {
    const storedAs = await this.transport.deliver({ ...mail, from: this.from });
    // Recorded as sent, so the outbox stays the one list of every mail that left the portal.
    await this.pool.query(
      `INSERT INTO mail_outbox (to_address, reply_to, subject, body_text, status, attempts, sent_at, dispatched_at, stored_as, message_id)
       VALUES ($1, $2, $3, $4, 'sent', 1, now(), now(), $5, $6)`,
      [mail.to, mail.replyTo ?? null, mail.subject, mail.text, storedAs, mail.messageId ?? null],
    );
    return storedAs;
  }

  async send(mail: OutgoingMail): Promise<number> {
    const id = await this.enqueue(mail);
    await this.dispatch([id]);
    return id;
  }

  private async deliver(id: number, attempt: { retryCount: number; retryLimit: number }) {
    const { rows } = await this.pool.query<{
      to_address: string;
      reply_to: string | null;
      subject: string;
      body_text: string;
      status: string;
    }>('SELECT to_address, reply_to, subject, body_text, status FROM mail_outbox WHERE id = $1', [id]);
    const mail = rows[0];
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
      await this.pool.query(
        "UPDATE mail_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, stored_as = $2, message_id = $3 WHERE id = $1",
        [id, storedAs, mailMessageId(id, this.from)],
      );
    } catch (error) {
      // After the last retry the row is 'failed' (kept with its error) so the sweeper leaves it alone.
      const last = attempt.retryCount >= attempt.retryLimit;
      await this.pool.query(
        `UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, status = CASE WHEN $3 THEN 'failed' ELSE status END WHERE id = $1`,
        [id, String(error), last],
      );
      throw error; // pg-boss retries with backoff
    }
  }
}
