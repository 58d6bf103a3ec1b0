import { describe, expect, it } from 'vitest';
import { unitPlainText } from './unit-label';

describe('unit texts in the SPA', () => {
  it('name codes by the shared Recommendation 20 table, also before the catalogue meta has loaded', () => {
    expect(unitPlainText('C62')).toBe('Stk');
    expect(unitPlainText('MTR')).toBe('m');
    expect(unitPlainText('KGM')).toBe('kg');
    expect(unitPlainText('MTK', new Map([['MTK', 'm^2']]))).toBe('m²');
  });

  it("fall back to the catalogue's unit list for codes beyond the table, then to the code", () => {
    expect(unitPlainText('Q99', new Map([['Q99', 'Bund^3']]))).toBe('Bund³');
    expect(unitPlainText('XYZ')).toBe('XYZ');
    expect(unitPlainText('EUR')).toBe('€');
  });
});
