import { describe, expect, it } from 'vitest';
import { limits } from '@shk/contracts';
import { valuesValidFrom } from './values-valid-from';

describe('the custom-parameter value list', () => {
  const rows = [
    { id: 1, validTo: '2023-12-31' },
    { id: 2, validTo: null },
    { id: 3, validTo: '2024-01-01' },
    { id: 4, validTo: '2025-06-30' },
  ];

  it('starts at 2024-01-01: a value that ended before is not listed, open and later ones are', () => {
    expect(limits.minDate).toBe('2024-01-01');
    expect(valuesValidFrom(rows, limits.minDate).map((v) => v.id)).toEqual([2, 3, 4]);
  });

  it('a later start hides what ended before it; an empty start lists all', () => {
    expect(valuesValidFrom(rows, '2025-01-01').map((v) => v.id)).toEqual([2, 4]);
    expect(valuesValidFrom(rows, '').map((v) => v.id)).toEqual([1, 2, 3, 4]);
  });
});
