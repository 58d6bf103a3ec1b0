import { z } from 'zod';
import { PartnerDataChangeRequest, roleLabels } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { inTransaction } from '../../db/pool.ts';

export async function supportRoutes(app: App, { db, mail, config }: AppDeps) {
  app.post('/v1/SupportRequests/PartnerDataChange', {
    config: { roles: 'authenticated' },
    schema: {
      tags: ['Profil'], summary: 'Änderung der Firmendaten beantragen',
      body: PartnerDataChangeRequest, response: { 201: z.object({ id: z.number() }) },
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const { message, email, phoneNumber } = request.body;
    const partner = caller.bpNumber
      ? (await db.$client.query<{ name: string }>('SELECT name FROM business_partners WHERE bp_number = $1', [caller.bpNumber])).rows[0]
      : undefined;
    // Request and mail are stored together; delivery happens in the background after commit.
    const { id, mailId } = await inTransaction(db, async (tx) => {
      const client = tx.$client;
      const mailId = await mail.enqueue({
        to: config.supportMailbox,
        replyTo: email,
        subject: `Änderungsantrag Firmendaten: ${caller.bpNumber ?? '–'} ${partner?.name ?? ''}`.trim(),
        text: [
          'Ein Benutzer beantragt eine Änderung der Firmendaten.',
          '',
          `Geschäftspartner: ${caller.bpNumber ?? '–'} ${partner?.name ?? ''}`,
          `Benutzer: ${caller.firstName} ${caller.lastName} <${caller.email}> (${roleLabels[caller.role]})`,
          `Antwort an: ${email}${phoneNumber ? `, Telefon ${phoneNumber}` : ''}`,
          '',
          'Nachricht:',
          message,
        ].join('\n'),
      }, client);
      const { rows } = await client.query<{ id: number }>(
        `INSERT INTO support_requests (kind, user_id, bp_number, message, email, phone_number, mail_id)
         VALUES ('PartnerDataChange', $1, $2, $3, $4, $5, $6) RETURNING id`,
        [caller.userId, caller.bpNumber, message, email, phoneNumber || null, mailId]);
      return { id: rows[0].id, mailId };
    });
    await mail.dispatch([mailId]);
    return reply.status(201).send({ id });
  });
}
