import { roleLabels, type PartnerDataChangeRequest } from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { Db } from '../../db/pool.ts';
import { inTransaction } from '../../db/pool.ts';
import type { MailService } from '../mail/index.ts';
import { insertSupportRequest, partnerName } from './support.repo.ts';

/** Requests to the support team (today: a change of the company data). */
export class SupportService {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    private readonly supportMailbox: string,
  ) {}

  /**
   * Stores the request and its mail to the support mailbox in one transaction; delivery happens in the
   * background after the commit.
   */
  async partnerDataChange(caller: Caller, body: PartnerDataChangeRequest): Promise<{ id: number }> {
    const { message, email, phoneNumber } = body;
    const name = caller.bpNumber ? await partnerName(this.db, caller.bpNumber) : null;
    const partner = `${caller.bpNumber ?? '–'} ${name ?? ''}`;
    const id = await inTransaction(this.db, async (tx) => {
      const client = tx.$client;
      const mailId = await this.mail.enqueue(
        {
          to: this.supportMailbox,
          // Reply-To only from the signed-in user's own (verified) profile address: the typed-in
          // address is shown in the text, but could be anyone's.
          replyTo: caller.email,
          subject: `Änderungsantrag Firmendaten: ${partner}`.trim(),
          text: [
            'Ein Benutzer beantragt eine Änderung der Firmendaten.',
            '',
            `Geschäftspartner: ${partner}`,
            `Benutzer: ${caller.firstName} ${caller.lastName} <${caller.email}> (${roleLabels[caller.role]})`,
            `Antwort an: ${email}${phoneNumber ? `, Telefon ${phoneNumber}` : ''}`,
            '',
            'Nachricht:',
            message,
          ].join('\n'),
        },
        client,
      );
      const id = await insertSupportRequest(client, {
        kind: 'PartnerDataChange',
        userId: caller.userId,
        bpNumber: caller.bpNumber,
        message,
        email,
        phoneNumber: phoneNumber || null,
        mailId,
      });
      tx.afterCommit(() => this.mail.dispatch([mailId]));
      return id;
    });
    return { id };
  }
}
