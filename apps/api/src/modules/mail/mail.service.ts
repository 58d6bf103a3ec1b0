import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import nodemailer, { type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type MimeNode from 'nodemailer/lib/mime-node';
import type pg from 'pg';
import type { Queryable } from '../../db/queryable.ts';
import { runExclusively } from '../cluster/index.ts';
import { BATCH_JOB_OPTIONS, type Jobs } from '../jobs/index.ts';
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

/** The content of a mail that goes to several addresses: everything but the recipient's own headers. */
export type MailContent = Omit<DeliverableMail, 'id' | 'to' | 'messageId'>;

/** One address of a mail composed once: its To header, its own Message-ID and its name in the file transport. */
export interface MailRecipient {
  id: number | string;
  to: string;
  messageId: string;
}

/**
 * How a mail leaves the system. Default: an .eml file under DATA_DIR/mail (readable by tests
 * and by a developer); SMTP when SMTP_URL is set.
 */
export interface MailTransport {
  deliver(mail: DeliverableMail): Promise<string | null>;
  /**
   * One mail to several addresses, one message each (its own To and Message-ID), composed once: the parts and the
   * attachments' base64 are built for the first address and reused for the others. Stops at the first address that
   * fails; `delivered` gets each address's result as soon as it is delivered (so a caller records what went out).
   */
  deliverToEach(
    mail: MailContent,
    recipients: MailRecipient[],
    delivered: (recipient: MailRecipient, storedAs: string | null) => void,
  ): Promise<void>;
  /** Closes kept connections (the SMTP pool). */
  close(): Promise<void>;
}

/** Renders a finished part of a MIME tree as the tree would write it, without the tree's last newline. */
function renderPart(node: MimeNode): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    node.stream(out, {}, (error) => (error ? reject(error) : resolve(Buffer.concat(chunks))));
  });
}

/**
 * Replaces every leaf part below `node` by its rendered bytes: building the message again copies them instead of
 * encoding the text and the attachments (base64) once more. Multipart nodes stay nodes (their headers and boundaries
 * are written from the node each time, the same each time).
 */
async function freezeParts(node: MimeNode): Promise<void> {
  for (const child of node.childNodes) {
    if (child.childNodes.length) await freezeParts(child);
    else child.setRaw(await renderPart(child));
  }
}

/**
 * Composes a mail once for several addresses with nodemailer's MailComposer and returns the message for each: the
 * same bytes nodemailer composes for one address alone (same parts and boundaries for every address), with the
 * address's To and Message-ID in the header. Addresses are built one after the other (the tree is shared).
 */
async function composeForEach(mail: MailContent, first: MailRecipient) {
  // Composed for the first address, so the headers stand in nodemailer's order; later addresses replace To and
  // Message-ID in place.
  const root = new MailComposer({
    from: mail.from,
    to: first.to,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.text,
    messageId: first.messageId,
    attachments: mail.attachments,
  }).compile();
  await freezeParts(root);
  return (recipient: MailRecipient): Promise<Buffer> => {
    root.setHeader('To', recipient.to);
    root.setHeader('Message-ID', recipient.messageId);
    return root.build();
  };
}

/** Sends each address its copy of a mail composed once, through a nodemailer transporter (raw message, own envelope). */
async function sendToEach(
  transporter: Transporter,
  mail: MailContent,
  recipients: MailRecipient[],
  delivered: (recipient: MailRecipient, info: { message?: unknown }) => Promise<void>,
) {
  if (!recipients.length) return;
  const messageFor = await composeForEach(mail, recipients[0]);
  for (const recipient of recipients) {
    const raw = await messageFor(recipient);
    const info = await transporter.sendMail({ envelope: { from: mail.from, to: [recipient.to] }, raw });
    await delivered(recipient, info);
  }
}

const singleRecipient = (mail: DeliverableMail): MailRecipient[] => [
  // A mail without a Message-ID gets one from nodemailer's own generator, as before.
  {
    id: mail.id,
    to: mail.to,
    messageId: mail.messageId ?? new MailComposer({ from: mail.from }).compile().messageId(),
  },
];

export function createFileTransport(dir: string): MailTransport {
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  // Created at the first mail; a write into a folder removed since creates it again.
  let folder: Promise<unknown> | null = null;
  const transport: MailTransport = {
    async deliver(mail) {
      let file: string | null = null;
      await transport.deliverToEach(mail, singleRecipient(mail), (_r, stored) => (file = stored));
      return file;
    },
    async deliverToEach(mail, recipients, delivered) {
      folder ??= fs.promises.mkdir(dir, { recursive: true });
      await folder;
      await sendToEach(transporter, mail, recipients, async (recipient, info) => {
        const file = path.join(
          dir,
          `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(recipient.id).replace(/[^\w.-]/g, '_')}.eml`,
        );
        // Asynchronous: a synchronous write held the API's event loop for the disk's time on every mail.
        await fs.promises.writeFile(file, info.message as Buffer).catch(async (error) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          await fs.promises.mkdir(dir, { recursive: true });
          await fs.promises.writeFile(file, info.message as Buffer);
        });
        delivered(recipient, file);
      });
    },
    async close() {},
  };
  return transport;
}

/**
 * Client-side end of an idle pooled connection, below the usual servers' idle limits (Postfix 300 s): the pool does
 * not start a mail on a connection the server is about to close.
 */
const SMTP_IDLE_CLOSE_MS = 30_000;

export function createSmtpTransport(url: string): MailTransport {
  // One pool of connections to the mail server, reused for every mail (one connection, EHLO and STARTTLS per mail
  // otherwise) and closed after SMTP_IDLE_CLOSE_MS without a mail. A connection the server closed is replaced by a new
  // one; a mail whose connection closed before the server accepted it is sent on the next (nodemailer's pool). A
  // URL's own pool= setting wins.
  const transporter: Transporter = nodemailer.createTransport({
    pool: true,
    maxConnections: 5,
    idleTimeout: SMTP_IDLE_CLOSE_MS,
    url,
  });
  const transport: MailTransport = {
    async deliver(mail) {
      await transport.deliverToEach(mail, singleRecipient(mail), () => undefined);
      return null;
    },
    async deliverToEach(mail, recipients, delivered) {
      await sendToEach(transporter, mail, recipients, async (recipient) => delivered(recipient, null));
    },
    async close() {
      transporter.close();
    },
  };
  return transport;
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
    private readonly log: { error: (...a: unknown[]) => void } = console,
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

  /**
   * Stores the mail and its delivery job in the caller's open transaction: the job commits with the mail (or neither),
   * so nothing is left to hand over after the commit (no dispatch round trips before the caller answers, no call that
   * fails after its transaction committed, no wait for the sweeper after a crash between commit and dispatch). The
   * job can only be fetched once the transaction committed.
   */
  async enqueueInTransaction(mail: OutgoingMail, client: pg.PoolClient): Promise<number> {
    const id = await repo.insertDispatched(client, mail);
    await this.jobs.sendInTransaction(client, MAIL_QUEUE, { id }, BATCH_JOB_OPTIONS);
    return id;
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
   * Hands a mail straight to the transport, one message per address (composed once), and records each address's
   * message as sent: for callers that keep their own outbox and retries (order transmission by e-mail). The messages
   * delivered are recorded also when a later address fails (in one statement). Returns where the file transport
   * stored each (null with SMTP).
   */
  async deliverDirect(mail: Omit<MailContent, 'from'>, recipients: MailRecipient[]): Promise<(string | null)[]> {
    const sent: { recipient: MailRecipient; storedAs: string | null }[] = [];
    let failure: unknown = null;
    await this.transport
      .deliverToEach({ ...mail, from: this.from }, recipients, (recipient, storedAs) =>
        sent.push({ recipient, storedAs }),
      )
      .catch((error) => (failure = error ?? new Error('mail delivery failed')));
    // Recorded as sent, so the outbox stays the one list of every mail that left the portal. A record that cannot be
    // written does not fail the delivery: the caller would retry it and the addresses would get the mail twice.
    if (sent.length)
      await repo
        .insertSent(
          this.pool,
          sent.map(({ recipient, storedAs }) => ({
            to: recipient.to,
            replyTo: mail.replyTo,
            subject: mail.subject,
            text: mail.text,
            messageId: recipient.messageId,
            storedAs,
          })),
        )
        .catch((error) => this.log.error({ err: error }, `mail outbox: ${sent.length} sent mail(s) not recorded`));
    if (failure) throw failure;
    return sent.map((s) => s.storedAs);
  }

  /** Closes the transport's kept connections (after the node's background work stopped). */
  async close() {
    await this.transport.close();
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
