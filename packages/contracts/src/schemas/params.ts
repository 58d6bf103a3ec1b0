import { z } from 'zod';

/** A database id in a path or query parameter: a positive integer JavaScript can hold exactly. */
export const DbId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Path parameters of routes addressing one object by id (`/…/:id`). */
export const IdParams = z.object({ id: DbId });

/** An id of a `serial` (int4) column: larger numbers are a 400, never a database range error. */
export const Int4Id = z.coerce.number().int().positive().max(2_147_483_647);

/** Path parameters of routes addressing one object of a `serial` table by id. */
export const Int4IdParams = z.object({ id: Int4Id });

/** A customer or supplier order number in a path parameter (KB-…, LB-…). */
export const OrderNumber = z.string().min(1).max(40);
