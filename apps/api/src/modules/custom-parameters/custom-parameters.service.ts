import {
  isSecretParameter,
  parameterMessages,
  rangesOverlap,
  valueIssues,
  type CustomParameter,
  type CustomParameterSummary,
  type CustomParameterValue,
} from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { inTransaction } from '../../db/pool.ts';
import { notFound, validationProblem } from '../../http/problem.ts';
import * as repo from './custom-parameters.repo.ts';

type ValueInput = { value: string; validFrom: string | null; validTo: string | null };

const toSummary = (p: repo.ParameterRow): CustomParameterSummary => ({
  key: p.key,
  description: p.description,
  typeId: p.type_id,
  maxValueCount: p.max_value_count,
  isPublic: p.is_public,
});
/** A value as the API gives it: a secret's (type Geheimnis) never leaves the server. */
const toValue = (p: repo.ParameterRow, v: repo.ValueRow): CustomParameterValue => ({
  id: Number(v.id),
  value: isSecretParameter(p.type_id) ? null : v.value,
  validFrom: v.valid_from,
  validTo: v.valid_to,
});

/**
 * Custom parameters (/parameter). No cache anywhere: the services that enforce a feature setting read
 * it per request (settings.service.ts), so a saved value is in force on the next request.
 */
export class CustomParametersService {
  constructor(private readonly db: Db) {}

  async list() {
    return (await repo.listParameters(this.db.$client)).map(toSummary);
  }

  async get(key: string): Promise<CustomParameter> {
    const p = await repo.findParameter(this.db.$client, key);
    if (!p) throw notFound('Parameter nicht gefunden');
    return { ...toSummary(p), values: (await repo.listValues(this.db.$client, key)).map((v) => toValue(p, v)) };
  }

  async values(key: string) {
    return (await this.get(key)).values;
  }

  add(key: string, input: ValueInput) {
    return this.write(key, null, input);
  }

  update(key: string, id: number, input: ValueInput) {
    return this.write(key, id, input);
  }

  async remove(key: string, id: number) {
    if (!(await repo.findParameter(this.db.$client, key))) throw notFound('Parameter nicht gefunden');
    if (!(await repo.deleteValue(this.db.$client, key, id))) throw notFound('Wert nicht gefunden');
  }

  /**
   * One writer per key at a time (the row lock), so two administrators cannot both slip a value past
   * the overlap and count rules.
   */
  private write(key: string, id: number | null, raw: ValueInput): Promise<CustomParameterValue> {
    return inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      const p = await repo.findParameter(c, key, true);
      if (!p) throw notFound('Parameter nicht gefunden');
      const all = await repo.listValues(c, key);
      const current = id === null ? undefined : all.find((v) => Number(v.id) === id);
      if (id !== null && !current) throw notFound('Wert nicht gefunden');
      // A secret is never sent to the page, so saving its dates without a new value keeps the stored one.
      const keepSecret = isSecretParameter(p.type_id) && current && !raw.value.trim();
      const input = { ...raw, value: keepSecret ? current.value : raw.value.trim() };
      const others = all.filter((v) => Number(v.id) !== id);
      const issues = valueIssues(key, p.type_id, input);
      if (!issues.length) {
        const overlapping = others.filter((o) =>
          rangesOverlap(input, { validFrom: o.valid_from, validTo: o.valid_to }),
        ).length;
        // maxValueCount counts values valid at the same time: with 1, validity ranges must not overlap.
        if (p.max_value_count === 1 && overlapping > 0) issues.push(parameterMessages.overlap);
        else if (overlapping >= p.max_value_count) issues.push(parameterMessages.maxValues(p.max_value_count));
      }
      if (issues.length)
        throw validationProblem(
          issues.map((message) => ({ field: 'body.value', message })),
          parameterMessages.invalidValue,
        );
      const savedId =
        id === null ? await repo.insertValue(c, key, input) : (await repo.updateValue(c, key, id, input), id);
      return toValue(p, {
        id: String(savedId),
        value: input.value,
        valid_from: input.validFrom,
        valid_to: input.validTo,
      });
    });
  }
}
