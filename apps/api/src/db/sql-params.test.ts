import { describe, expect, it } from 'vitest';
import { SqlWhere } from './sql-params.ts';

describe('SqlWhere', () => {
  it('numbers the values of the conditions, one parameter per value however often ? appears', () => {
    const where = new SqlWhere()
      .and('o.bp_number = ?', '100001')
      .and('o.deleted_at IS NULL')
      .and('(s.name ILIKE ? OR b.name ILIKE ?)', '%bad%');
    expect(where.sql).toBe('WHERE o.bp_number = $1 AND o.deleted_at IS NULL AND (s.name ILIKE $2 OR b.name ILIKE $2)');
    expect(where.values).toEqual(['100001', '%bad%']);
  });

  it('is empty without conditions', () => {
    expect(new SqlWhere().sql).toBe('');
  });

  it('pages with parameters after the conditions and keeps the values for the count', () => {
    const where = new SqlWhere().and('o.year = ?', 2026);
    expect(where.page(3, 20)).toEqual({ sql: 'LIMIT $2 OFFSET $3', values: [2026, 20, 40] });
    expect(where.values).toEqual([2026]);
  });

  it('a copy takes more conditions while the scope it came from stays as it was', () => {
    const scope = new SqlWhere().and('o.bp_number = ?', '100001');
    const filtered = scope.copy().and('o.status_id = ?', 2);
    expect(filtered.sql).toBe('WHERE o.bp_number = $1 AND o.status_id = $2');
    expect(filtered.values).toEqual(['100001', 2]);
    expect(scope.sql).toBe('WHERE o.bp_number = $1');
    expect(scope.values).toEqual(['100001']);
  });
});
