import type { MailSettings } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';
import { readMailSettings, writeMailSettings } from './mail-settings.repo.ts';

/**
 * Which order mails a user gets. Other modules ask here (inside their transaction) before they write a mail to the
 * outbox: checkout (order placed) and the supplier's confirmation (confirmed, changed, rejected).
 */
export function mailSettingsOf(db: Queryable, userId: string): Promise<MailSettings> {
  return readMailSettings(db, userId);
}

export async function wantsMail(db: Queryable, userId: string, kind: keyof MailSettings): Promise<boolean> {
  return (await readMailSettings(db, userId))[kind];
}

export function saveMailSettings(db: Queryable, userId: string, settings: MailSettings): Promise<void> {
  return writeMailSettings(db, userId, settings);
}
