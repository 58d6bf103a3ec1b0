import { z } from 'zod';
import { FeedbackRequest, Role } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { FeedbackService } from './feedback.service.ts';

export async function feedbackRoutes(app: App, { db }: AppDeps) {
  const feedback = new FeedbackService(db);
  app.post(
    '/v1/Feedbacks',
    {
      // Role None sees no search (it has no partner), so it has nothing to give feedback on.
      config: {
        ids: 'allowed',
        roles: [Role.Buyer, Role.Seller, Role.Administrator, Role.Support, Role.PlatformOperator],
      },
      schema: {
        tags: ['Allgemein'],
        summary: 'Feedback zur Suche abgeben',
        body: FeedbackRequest,
        response: { 201: z.object({ id: z.number() }) },
      },
    },
    async (request, reply) => reply.status(201).send({ id: await feedback.submit(callerOf(request), request.body) }),
  );
}
