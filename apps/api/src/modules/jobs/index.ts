/**
 * Public face of the jobs module: Background jobs on pg-boss.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { BATCH_JOB_OPTIONS, Jobs, type JobAttempt, type JobHandler, type Logger, type QueueOptions } from './jobs.ts';
