import { describe, expect, it } from 'vitest';
import { checkTransition } from './transitions.ts';

describe('relation transitions', () => {
  it('lets the seller confirm a waiting request with a customer number', () => {
    expect(checkTransition({ actor: 'seller', from: 2, to: 1, customerNumber: 'K-1' })).toEqual({ ok: true });
    expect(checkTransition({ actor: 'seller', from: 2, to: 1, customerNumber: '' })).toEqual({
      ok: false,
      reason: 'customer-number-required',
    });
  });
  it('requires a reason to reject a request and to remove an approved customer', () => {
    expect(checkTransition({ actor: 'seller', from: 2, to: 3 })).toEqual({ ok: false, reason: 'reason-required' });
    expect(checkTransition({ actor: 'seller', from: 2, to: 3, comments: 'unbekannt' })).toEqual({ ok: true });
    expect(checkTransition({ actor: 'seller', from: 1, to: 3 })).toEqual({ ok: false, reason: 'reason-required' });
    expect(checkTransition({ actor: 'seller', from: 1, to: 3, comments: '  ' })).toEqual({
      ok: false,
      reason: 'reason-required',
    });
    expect(checkTransition({ actor: 'seller', from: 1, to: 3, comments: 'Kein Umsatz' })).toEqual({ ok: true });
  });
  it('lets the buyer request again only after a rejection', () => {
    expect(checkTransition({ actor: 'buyer', from: 3, to: 2, customerNumber: 'K-9' })).toEqual({ ok: true });
    expect(checkTransition({ actor: 'buyer', from: 3, to: 4 })).toEqual({ ok: true });
    expect(checkTransition({ actor: 'buyer', from: 2, to: 1, customerNumber: 'K' })).toEqual({
      ok: false,
      reason: 'not-allowed',
    });
    expect(checkTransition({ actor: 'buyer', from: 1, to: 3 })).toEqual({ ok: false, reason: 'not-allowed' });
  });
  it('keeps sellers away from blocking and administrators from approving', () => {
    expect(checkTransition({ actor: 'seller', from: 1, to: 6 }).ok).toBe(false);
    expect(checkTransition({ actor: 'administrator', from: 1, to: 6 }).ok).toBe(true);
    expect(checkTransition({ actor: 'administrator', from: 2, to: 1, customerNumber: 'x' }).ok).toBe(false);
  });
});
