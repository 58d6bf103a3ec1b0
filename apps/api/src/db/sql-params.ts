/** Numbered placeholders ($1, $2, …) for SQL built from parts: every value goes in `values`, never into the text. */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The WHERE clause and paging of a list query, every value a parameter:
 *
 *   const where = new SqlWhere().and('o.bp_number = ?', bp);
 *   if (year) where.and('extract(year FROM o.placed_at)::int = ?', year);
 *   const page = where.page(f.page, f.pageSize);
 *   query(`SELECT … ${where.sql} ORDER BY … ${page.sql}`, page.values);
 *   query(`SELECT count(*) … ${where.sql}`, where.values);
 */
export class SqlWhere extends SqlParams {
  private readonly conditions: string[] = [];

  /**
   * Adds a condition (joined with AND). With a value, each `?` in it stands for that value: one parameter, however
   * often it appears. Without one, the condition is taken as written (no `?` is replaced).
   */
  and(condition: string, ...value: [] | [unknown]): this {
    if (!value.length) this.conditions.push(condition);
    else {
      const placeholder = this.add(value[0]);
      this.conditions.push(condition.replaceAll('?', () => placeholder));
    }
    return this;
  }

  /** `WHERE a AND b`, or '' without conditions. */
  get sql(): string {
    return this.conditions.length ? `WHERE ${this.conditions.join(' AND ')}` : '';
  }

  /** A copy to add more conditions to (a list's filters on top of its scope, which stays usable on its own). */
  copy(): SqlWhere {
    const copy = new SqlWhere();
    copy.values.push(...this.values);
    copy.conditions.push(...this.conditions);
    return copy;
  }

  /**
   * The conditions alone, joined with AND ('true' without any): for a statement that writes its own WHERE and adds
   * more conditions after them.
   */
  get conditionSql(): string {
    return this.conditions.length ? this.conditions.join(' AND ') : 'true';
  }

  /**
   * LIMIT and OFFSET of a 1-based page, as parameters after the conditions' values. `this.values` stays without
   * them, for the count of the same conditions.
   */
  page(page: number, pageSize: number): { sql: string; values: unknown[] } {
    return this.slice((page - 1) * pageSize, pageSize);
  }

  /** LIMIT and OFFSET of `limit` rows from `offset` on, as parameters like page(). */
  slice(offset: number, limit: number): { sql: string; values: unknown[] } {
    const n = this.values.length;
    return { sql: `LIMIT $${n + 1} OFFSET $${n + 2}`, values: [...this.values, limit, offset] };
  }
}
