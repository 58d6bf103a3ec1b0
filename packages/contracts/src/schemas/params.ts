import { z } from 'zod';

/** A database id in a path or query parameter: a positive integer JavaScript can hold exactly. */
export const DbId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Path parameters of routes addressing one object by id (`/…/:id`). */
export const IdParams = z.object({ id: DbId });
