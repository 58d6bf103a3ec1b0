import type { FeedbackRequest } from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { insertFeedback } from './feedback.repo.ts';

/** Search feedback of a signed-in user, stored with the partner they were working for. */
export class FeedbackService {
  constructor(private readonly handle: Db) {}

  /** Read on use: the OpenAPI generator registers routes without a database. */
  private get db() {
    return this.handle.$client;
  }

  submit(caller: { userId: string; bpNumber: string | null }, body: FeedbackRequest): Promise<number> {
    return insertFeedback(this.db, {
      userId: caller.userId,
      bpNumber: caller.bpNumber,
      isPositive: body.isPositive,
      comment: body.comment?.trim() || null,
      url: body.url || null,
    });
  }
}
