import { z } from 'zod';
import { FeedbackRequest } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';

export async function feedbackRoutes(app: App, { db }: AppDeps) {
  app.post('/v1/Feedbacks', {
    config: { roles: 'authenticated' },
    schema: { tags: ['Allgemein'], summary: 'Feedback zur Suche abgeben', body: FeedbackRequest, response: { 201: z.object({ id: z.number() }) } },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const { isPositive, comment, url } = request.body;
    const { rows } = await db.$client.query<{ id: number }>(
      'INSERT INTO feedbacks (user_id, bp_number, is_positive, comment, url) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [caller.userId, caller.bpNumber, isPositive, comment?.trim() || null, url || null]);
    return reply.status(201).send({ id: rows[0].id });
  });
}
