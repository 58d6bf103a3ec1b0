import type { Queryable } from '../../db/queryable.ts';

/** A mail as the outbox stores it. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  replyTo?: string | null;
}

/** The mail outbox (`mail_outbox`): every mail that leaves the portal is a row here. */

/** Pending mails whose last dispatch (or creation) is older than `olderThanMs`, oldest first, at most 1000. */
export async function findStalePending(db: Queryable, olderThanMs: number): Promise<number[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM mail_outbox WHERE status = 'pending' AND COALESCE(dispatched_at, created_at) < now() - make_interval(secs => $1::float8 / 1000)
      ORDER BY id LIMIT 1000`,
    [olderThanMs],
  );
  return rows.map((r) => Number(r.id));
}

export async function insertPending(db: Queryable, mail: OutgoingMail): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO mail_outbox (to_address, reply_to, subject, body_text) VALUES ($1, $2, $3, $4) RETURNING id',
    [mail.to, mail.replyTo ?? null, mail.subject, mail.text],
  );
  return rows[0].id;
}

/** A mail whose delivery job is written in the same transaction (so it counts as dispatched from the start). */
export async function insertDispatched(db: Queryable, mail: OutgoingMail): Promise<number> {
  const { rows } = await db.query<{ id: number }>({
    name: 'mail-insert-dispatched', // prepared once per connection: one per checkout
    text: `INSERT INTO mail_outbox (to_address, reply_to, subject, body_text, dispatched_at) VALUES ($1, $2, $3, $4, now())
           RETURNING id`,
    values: [mail.to, mail.replyTo ?? null, mail.subject, mail.text],
  });
  return rows[0].id;
}

export async function markDispatched(db: Queryable, ids: number[]): Promise<void> {
  await db.query('UPDATE mail_outbox SET dispatched_at = now() WHERE id = ANY($1::bigint[])', [ids]);
}

/** Mails another outbox delivered already, recorded as sent (one statement for all). */
export async function insertSent(
  db: Queryable,
  mails: (OutgoingMail & { messageId?: string; storedAs: string | null })[],
): Promise<void> {
  await db.query(
    `INSERT INTO mail_outbox (to_address, reply_to, subject, body_text, status, attempts, sent_at, dispatched_at, stored_as, message_id)
     SELECT m.to_address, m.reply_to, m.subject, m.body_text, 'sent', 1, now(), now(), m.stored_as, m.message_id
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
            AS m(to_address, reply_to, subject, body_text, stored_as, message_id)`,
    [
      mails.map((m) => m.to),
      mails.map((m) => m.replyTo ?? null),
      mails.map((m) => m.subject),
      mails.map((m) => m.text),
      mails.map((m) => m.storedAs),
      mails.map((m) => m.messageId ?? null),
    ],
  );
}

export async function findMail(db: Queryable, id: number) {
  const { rows } = await db.query<{
    to_address: string;
    reply_to: string | null;
    subject: string;
    body_text: string;
    status: string;
  }>('SELECT to_address, reply_to, subject, body_text, status FROM mail_outbox WHERE id = $1', [id]);
  return rows[0];
}

export async function markSent(db: Queryable, id: number, storedAs: string | null, messageId: string): Promise<void> {
  await db.query(
    "UPDATE mail_outbox SET status = 'sent', sent_at = now(), attempts = attempts + 1, stored_as = $2, message_id = $3 WHERE id = $1",
    [id, storedAs, messageId],
  );
}

/** A failed attempt; after the last retry the row is 'failed' (kept with its error). */
export async function recordFailure(db: Queryable, id: number, error: string, last: boolean): Promise<void> {
  await db.query(
    `UPDATE mail_outbox SET attempts = attempts + 1, last_error = $2, status = CASE WHEN $3 THEN 'failed' ELSE status END WHERE id = $1`,
    [id, error, last],
  );
}
