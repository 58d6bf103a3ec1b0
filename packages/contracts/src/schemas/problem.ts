import { z } from 'zod';

/** RFC 9457 problem details, extended with the list of field errors. */
export const ProblemFieldError = z.object({
  field: z.string(),
  message: z.string(),
  code: z.string().optional(),
});
export const Problem = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    errors: z.array(ProblemFieldError).optional(),
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

/** Problem `type` values the front end switches on. */
export const ProblemType = {
  validation: 'validation-error',
  entityAlreadyExists: 'entity-already-exists',
  valueNotInRange: 'value-not-in-range',
  notFound: 'not-found',
  forbidden: 'forbidden',
  unauthorized: 'unauthorized',
  conflict: 'conflict',
  badRequest: 'bad-request',
  internal: 'internal-error',
} as const;
