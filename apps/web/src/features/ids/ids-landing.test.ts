import { describe, expect, it } from 'vitest';
import { idsLandingTarget } from './ids-landing';

const target = (q: string) => idsLandingTarget(new URLSearchParams(q));

describe('IDS landing target', () => {
  it('routes each action as the spec says', () => {
    expect(target('action=as&searchterm=Thermostat ventil')).toBe('/suche?term=Thermostat+ventil');
    expect(target('action=ADL&productId=TESTM~TM-100&articleNumber=TEST-NB-1')).toBe(
      '/produkt?id=TESTM%7ETM-100&articleNumber=TEST-NB-1',
    );
    expect(target('action=adl&productId=TESTM~TM-100&productInstanceId=200001~TEST-NB-1&articleNumber=TEST-NB-1')).toBe(
      '/produkt?id=TESTM%7ETM-100&articleNumber=200001%7ETEST-NB-1',
    );
    expect(target('action=wks')).toBe('/ids-warenkorb');
    expect(target('action=wke')).toBe('/');
    expect(target('action=adl')).toBe('/');
  });

  it('opens punchout sessions on the search, the product (OCI DETAIL) or the cart (cXML edit)', () => {
    expect(target('action=oci&searchterm=Ventil')).toBe('/suche?term=Ventil');
    expect(target('action=oci')).toBe('/suche');
    expect(target('action=oci&productId=TESTM~TM-100&productInstanceId=x1')).toBe(
      '/produkt?id=TESTM%7ETM-100&articleNumber=x1',
    );
    expect(target('action=cxml&open=cart')).toBe('/warenkorb');
    expect(target('action=cxml')).toBe('/suche');
  });
});
