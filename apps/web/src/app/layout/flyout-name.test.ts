import { describe, expect, it } from 'vitest';
import { flyoutCartName } from './flyout-name';

describe('flyout cart name', () => {
  it('keeps names up to 20 characters and cuts longer ones to 18 plus dots', () => {
    expect(flyoutCartName('Warenkorb')).toBe('Warenkorb');
    expect(flyoutCartName('x'.repeat(20))).toBe('x'.repeat(20));
    expect(flyoutCartName('Baustelle Rheinauhafen (Haus 3)')).toBe('Baustelle Rheinauh...');
  });
});
