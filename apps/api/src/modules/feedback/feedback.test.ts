import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';

/** POST /v1/Feedbacks (moved from test/foundation.test.ts). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const BUYER = 'einkauf@example.com';

describe('feedback', () => {
  it('stores feedback with user and current partner', async () => {
    const res = await t.request('POST', '/v1/Feedbacks', {
      as: BUYER,
      body: { isPositive: false, comment: 'Kein Treffer für Rotguss', url: '/suche?term=Rotguss' },
    });
    expect(res.status).toBe(201);
    const { rows } = await t.pool.query(
      'SELECT f.*, u.email FROM feedbacks f JOIN users u ON u.id = f.user_id WHERE f.id = $1',
      [res.body.id],
    );
    expect(rows[0]).toMatchObject({
      email: BUYER,
      bp_number: '100001',
      is_positive: false,
      comment: 'Kein Treffer für Rotguss',
      url: '/suche?term=Rotguss',
    });
  });

  it('requires isPositive and limits the comment to 512 characters, listing every field', async () => {
    const res = await t.request('POST', '/v1/Feedbacks', { as: BUYER, body: { comment: 'x'.repeat(513) } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body.type).toBe('validation-error');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'body.isPositive', message: messages.required }),
        expect.objectContaining({ field: 'body.comment', message: 'Kommentar darf maximal 512 Zeichen enthalten' }),
      ]),
    );
    const ok = await t.request('POST', '/v1/Feedbacks', {
      as: BUYER,
      body: { isPositive: true, comment: 'x'.repeat(512) },
    });
    expect(ok.status).toBe(201);
  });
});
