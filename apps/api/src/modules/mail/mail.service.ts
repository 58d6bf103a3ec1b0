import fs from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type pg from 'pg';
import type { Jobs } from '../jobs/jobs.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string | null;
}

/**
 * How a mail leaves the system. Default: an .eml file under DATA_DIR/mail (readable by tests
 * and by a developer); SMTP when SMTP_URL is set.
 */
export interface MailTransport {
  deliver(mail: OutgoingMail & { id: number; from: string }): Promise<string | null>;
}

export function createFileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async deliver(mail) {
      const info = await transporter.sendMail({ from: mail.from, to: mail.to, replyTo: mail.replyTo ?? undefined, subject: mail.subject, text: mail.text });
      fs.mkdirSync(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.id}.eml`);
      fs.writeFileSync(file, info.message as Buffer);
      return file;
    },
  };
}

export function createSmtpTransport(url: string): MailTransport {
  const transporter: Transporter = nodemailer.createTransport(url);
  return {
    async deliver(mail) {
      await transporter.sendMail({ from: mail.from, to: mail.to, replyTo: mail.replyTo ?? undefined, subject: mail.subject, text: mail.text });
      return null;
    },
  };
}

export const MAIL_QUEUE = 'mail.send';

/** Mails are written to the outbox in the caller's transaction and delivered by a background job. */
export class MailService {
  constructor(
    private readonly pool: pg.Pool,
    private readonly jobs: Jobs,
    private readonly transport: MailTransport,
    private readonly from: string,
  ) {
    jobs.register<{ id: number }>(MAIL_QUEUE, ({ id }) => this.deliver(id));
  }

  /** Stores the mail (optionally inside an open transaction) and returns its outbox id. */
  async enqueue(mail: OutgoingMail, client: Pick<pg.PoolClient, 'query'> = this.pool): Promise<number> {
    const { rows } = await client.query<{ id: number }>(
      'INSERT INTO mail_outbox (to_address, reply_to, subject, body_text) VALUES ($1, $2, $3, $4) RETURNING id',
      [mail.to, mail.replyTo ?? null, mail.subject, mail.text],
    );
    return rows[0].id;
  }

  /** Hands stored mails to the job queue; call after the transaction that enqueued them committed. */
  async dispatch(ids: number[]) {
    // Delivery is idempotent (a sent mail is skipped), so a batch insert without singleton keys is safe.
    await this.jobs.sendMany(MAIL_QUEUE, ids.map((id) => ({ id })));
  }

  async send(mail: OutgoingMail): Promise<number> {
    const id = await this.enqueue(mail);
    await this.dispatch([id]);
    return id;
  }

  private async deliver(id: number) {
    const { rows } = await this.pool.query<{ to_address: string; reply_to: string | null; subject: string; body_text: string; status: string }>(
      'SELECT to_address, reply_to, subject, body_text, status FROM mail_outbox WHERE id = $1', [id]);
    const mail = rows[0];
    if (!mail || mail.status === 'sent') return;
    try {
      const storedAs = await this.transport.deliver({ id, from: this.from, to: mail.to_address, replyTo: mail.reply_to, subject: mail.subject, text: mail.body_text });
      await this.pool.query("UPDATE mail_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, stored_as = $2 WHERE id = $1", [id, storedAs]);
    } catch (error) {
      await this.pool.query('UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1', [id, String(error)]);
      throw error; // pg-boss retries with backoff
    }
  }
}
