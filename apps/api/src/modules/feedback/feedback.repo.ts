import type { Queryable } from '../../db/queryable.ts';

export interface FeedbackRow {
  userId: string;
  bpNumber: string | null;
  isPositive: boolean;
  comment: string | null;
  url: string | null;
}

export async function insertFeedback(db: Queryable, f: FeedbackRow): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    'INSERT INTO feedbacks (user_id, bp_number, is_positive, comment, url) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [f.userId, f.bpNumber, f.isPositive, f.comment, f.url],
  );
  return rows[0].id;
}
