import { z } from 'zod';
import { PartnerDataChangeRequest, Role } from '@shk/contracts';
import { mailSendingLimit } from '../../http/rate-limits.ts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { SupportService } from './support.service.ts';

export async function supportRoutes(app: App, { db, mail, config }: AppDeps) {
  const support = new SupportService(db, mail, config.supportMailbox);
  const sendsMail = await mailSendingLimit(app, 'support');
  app.post(
    '/v1/SupportRequests/PartnerDataChange',
    {
      // Only members of a company (buyers, sellers) can ask to change its data; staff edit it directly.
      config: { roles: [Role.Buyer, Role.Seller] },
      preHandler: sendsMail,
      schema: {
        tags: ['Profil'],
        summary: 'Änderung der Firmendaten beantragen',
        body: PartnerDataChangeRequest,
        response: { 201: z.object({ id: z.number() }) },
      },
    },
    async (request, reply) => {
      const { id } = await support.partnerDataChange(callerOf(request), request.body);
      return reply.status(201).send({ id });
    },
  );
}
