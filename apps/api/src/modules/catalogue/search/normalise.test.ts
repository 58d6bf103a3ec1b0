import { describe, expect, it } from 'vitest';
import { fold, foldedTokens, normaliseCode } from './fold.ts';
import { compoundParts } from './decompound.ts';
import { searchDocumentOf } from './indexer.ts';

describe('fold', () => {
  it('folds umlauts and their ASCII spellings alike', () => {
    expect(fold('Heizkörper')).toBe('heizkorper');
    expect(fold('Heizkoerper')).toBe('heizkorper');
    expect(fold('HEIZKORPER')).toBe('heizkorper');
    expect(fold('Straße Rückflussverhinderer Lüftung')).toBe('strasse ruckflussverhinderer luftung');
    expect(fold('Rueckfluss Lueftung Duesen')).toBe('ruckfluss luftung dusen');
    expect(fold('Café Niño')).toBe('cafe nino');
  });

  it('keeps ue after vowels and q (Feuer, Steuerung, Quelle)', () => {
    expect(fold('Feuer Steuerung Quelle Mauer neue')).toBe('feuer steuerung quelle mauer neue');
  });

  it('tokens and article numbers', () => {
    expect(foldedTokens('Press-T-Stück 22 mm')).toEqual(['press', 't', 'stuck', '22', 'mm']);
    expect(normaliseCode('TF-22.600 a')).toBe('TF22600A');
  });
});

describe('compoundParts', () => {
  it('splits German compounds by the longest known parts', () => {
    expect(compoundParts('thermostatventil')).toEqual(['thermostat', 'ventil']);
    expect(compoundParts(fold('Heizkörperverschraubung'))).toEqual(['heizkorper', 'verschraubung']);
    expect(compoundParts('sicherheitsventil')).toEqual(['sicherheit', 'ventil']);
    expect(compoundParts('rohrventilator')).toEqual(['rohr', 'ventilator']);
    expect(compoundParts('pressfitting')).toEqual(['press', 'fitting']);
  });

  it('leaves plain words alone', () => {
    expect(compoundParts('ventil')).toEqual([]);
    expect(compoundParts('messing')).toEqual([]);
    expect(compoundParts('abc')).toEqual([]);
  });
});

describe('searchDocumentOf', () => {
  it('puts name and compound parts in A, brand in B, new words only in C and D', () => {
    const doc = searchDocumentOf({
      productName: 'Thermostatventil Eckform DN 15',
      modelNumber: 'TV 15',
      brandName: 'Thermoflux',
      series: 'Vario',
      className: 'Thermostatventil',
      leafName: 'Thermostatventile',
      productType: 'Thermostatventil',
      alphanumericValues: ['Messing', 'Eckform'],
      productDescr:
        'Thermostatventil der Serie Vario von Thermoflux. Für Heizungsanlagen und den hydraulischen Abgleich.',
    });
    expect(doc.a).toBe('thermostatventil eckform dn 15 tv 15 thermostat ventil');
    expect(doc.b).toBe('thermoflux vario');
    expect(doc.c.split(' ')).toEqual(['thermostatventile', 'messing']);
    expect(doc.d.split(' ')).toEqual(['serie', 'heizungsanlagen', 'hydraulischen', 'abgleich']);
  });
});
