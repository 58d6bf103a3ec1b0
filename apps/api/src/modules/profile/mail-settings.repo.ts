import type { MailSettings } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';

interface Row {
  order_placed: boolean;
  order_confirmed: boolean;
  order_changed: boolean;
  order_rejected: boolean;
}

const everyMail: MailSettings = { orderPlaced: true, orderConfirmed: true, orderChanged: true, orderRejected: true };

/** A user's mail settings; every mail when the user never changed them (no row). */
export async function readMailSettings(db: Queryable, userId: string): Promise<MailSettings> {
  const { rows } = await db.query<Row>(
    'SELECT order_placed, order_confirmed, order_changed, order_rejected FROM user_mail_settings WHERE user_id = $1',
    [userId],
  );
  const r = rows[0];
  if (!r) return { ...everyMail };
  return {
    orderPlaced: r.order_placed,
    orderConfirmed: r.order_confirmed,
    orderChanged: r.order_changed,
    orderRejected: r.order_rejected,
  };
}

export async function writeMailSettings(db: Queryable, userId: string, s: MailSettings): Promise<void> {
  await db.query(
    `INSERT INTO user_mail_settings (user_id, order_placed, order_confirmed, order_changed, order_rejected)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (user_id) DO UPDATE SET order_placed = EXCLUDED.order_placed, order_confirmed = EXCLUDED.order_confirmed,
            order_changed = EXCLUDED.order_changed, order_rejected = EXCLUDED.order_rejected, updated_at = now()`,
    [userId, s.orderPlaced, s.orderConfirmed, s.orderChanged, s.orderRejected],
  );
}
