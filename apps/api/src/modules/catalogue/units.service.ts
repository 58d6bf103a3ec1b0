import type { Unit } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';
import { listUnits } from './units.repo.ts';

/** GET /v1/Units: the quantity units in display order (a caret marks superscript, m^2). */
export async function units(c: Queryable): Promise<Unit[]> {
  return (await listUnits(c)).map((r) => ({ code: r.code, shortDescription: r.short_description }));
}
