/**
 * Public face of the feedback module: Feedback from users.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { feedbackRoutes } from './feedback.routes.ts';
export { FeedbackService } from './feedback.service.ts';
