import { describe, expect, it } from 'vitest';
import { UNIT_NAMES, unitCodeOf, unitName } from './units.ts';

describe('units (UN/ECE Recommendation 20)', () => {
  it('names codes in German and keeps unknown codes as they are', () => {
    expect(unitName('C62')).toBe('Stk');
    expect(unitName('MTR')).toBe('m');
    expect(unitName('KGM')).toBe('kg');
    expect(unitName('MTK')).toBe('m²');
    expect(unitName(null)).toBe('Stk');
    expect(unitName('XYZ')).toBe('XYZ');
  });

  it('maps German spellings of older catalogues to the Recommendation 20 code', () => {
    expect(unitCodeOf('Stk')).toBe('C62');
    expect(unitCodeOf('ST')).toBe('C62');
    expect(unitCodeOf('m')).toBe('MTR');
    expect(unitCodeOf('kg')).toBe('KGM');
    expect(unitCodeOf(' ')).toBe('C62');
    expect(unitName('Stk')).toBe('Stk');
  });

  it('has only codes of Recommendation 20 form (2–3 upper-case letters or digits)', () => {
    for (const code of Object.keys(UNIT_NAMES)) expect(code).toMatch(/^[A-Z0-9]{2,3}$/);
  });
});
