import type { Db } from '../../db/pool.ts';
import type { Queryable } from '../../db/queryable.ts';

export async function partnerName(db: Db, bpNumber: string): Promise<string | null> {
  const { rows } = await db.$client.query<{ name: string }>('SELECT name FROM business_partners WHERE bp_number = $1', [
    bpNumber,
  ]);
  return rows[0]?.name ?? null;
}

export async function insertSupportRequest(
  c: Queryable,
  r: {
    kind: 'PartnerDataChange';
    userId: string;
    bpNumber: string | null;
    message: string;
    email: string;
    phoneNumber: string | null;
    mailId: number;
  },
): Promise<number> {
  const { rows } = await c.query<{ id: number }>(
    `INSERT INTO support_requests (kind, user_id, bp_number, message, email, phone_number, mail_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [r.kind, r.userId, r.bpNumber, r.message, r.email, r.phoneNumber, r.mailId],
  );
  return rows[0].id;
}
