import type { FeedbackRequest } from '@shk/contracts';
import { api } from './client';
import { expectStatus } from './problem';

/** Feedback on the search (POST /v1/Feedbacks). */
export const feedbackApi = {
  send: async (body: FeedbackRequest) => expectStatus(await api.POST('/v1/Feedbacks', { body }), 201),
};
