import type { Queryable } from '../../db/queryable.ts';

export type As2MessageState = 'awaiting' | 'processed' | 'failed';

export interface As2MessageRow {
  message_id: string;
  supplier_order_id: number;
  workflow_id: number | null;
  mic: string;
  state: As2MessageState;
  error: string | null;
}

/**
 * Records (or re-arms for a new attempt) a message that awaits an asynchronous MDN. A message the
 * partner already acknowledged stays 'processed' and is returned as such.
 */
export async function expectAs2Message(
  db: Queryable,
  m: { messageId: string; supplierOrderId: number; workflowId: number; mic: string },
): Promise<'awaiting' | 'processed'> {
  const { rows } = await db.query<{ state: As2MessageState }>(
    `INSERT INTO as2_messages (message_id, supplier_order_id, workflow_id, mic) VALUES ($1, $2, $3, $4)
     ON CONFLICT (message_id) DO UPDATE SET mic = EXCLUDED.mic, workflow_id = EXCLUDED.workflow_id, state = 'awaiting',
            error = NULL, sent_at = now(), mdn_received_at = NULL
      WHERE as2_messages.state <> 'processed'
     RETURNING state`,
    [m.messageId, m.supplierOrderId, m.workflowId, m.mic],
  );
  return rows.length ? 'awaiting' : 'processed';
}

export async function findAs2Message(db: Queryable, messageId: string): Promise<As2MessageRow | null> {
  const { rows } = await db.query<As2MessageRow>(
    'SELECT message_id, supplier_order_id, workflow_id, mic, state, error FROM as2_messages WHERE message_id = $1',
    [messageId],
  );
  return rows[0] ?? null;
}

/** Records the MDN's outcome once: false when the message was no longer awaiting one (a repeated MDN). */
export async function recordAs2Mdn(
  db: Queryable,
  messageId: string,
  state: 'processed' | 'failed',
  error: string | null,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE as2_messages SET state = $2, error = $3, mdn_received_at = now() WHERE message_id = $1 AND state = 'awaiting'`,
    [messageId, state, error],
  );
  return rowCount === 1;
}

export async function as2PartnerCertificates(
  db: Queryable,
): Promise<{ id: number; name: string; certificate: string }[]> {
  const { rows } = await db.query<{ id: number; name: string; certificate: string }>(
    `SELECT id, name, as2_partner_certificate AS certificate FROM workflows
      WHERE communication_protocol_id = 3 AND as2_partner_certificate IS NOT NULL ORDER BY name`,
  );
  return rows;
}

/** Claims the warning for a certificate and threshold: true only for the first caller (one mail each). */
export async function claimExpiryNotice(db: Queryable, fingerprint: string, thresholdDays: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO certificate_expiry_notices (fingerprint, threshold_days) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [fingerprint, thresholdDays],
  );
  return rowCount === 1;
}

/** Administrators maintain workflows and certificates: they get the expiry warnings. */
export async function administratorEmails(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ email: string }>(
    `SELECT DISTINCT lower(email) AS email FROM users WHERE role = 3 AND email <> '' ORDER BY 1`,
  );
  return rows.map((r) => r.email);
}
