import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoleName } from '@shk/contracts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { demoUsers, idsSession, roleMatrix, type MatrixContext, type MatrixRequest } from '../role-matrix.table.ts';

/**
 * Every file the API hands out is a download: each GET route of the role matrix is called with its first
 * sample, and every answer that is not JSON must carry `Content-Disposition: attachment` and nosniff, so an
 * uploaded file is never rendered as a page of the portal's origin. The known download routes must answer
 * with a file (so the check cannot pass by answering JSON everywhere).
 */
const DOWNLOAD_ROUTES = [
  'GET /v1/CartItems/:cartItemId/attachments/:id',
  'GET /v1/SupplierOrders/:supplierOrderNumber/Attachments/:id',
  'GET /v1/SupplierOrders/:supplierOrderNumber/lines/:lineId/attachments/:id',
  'GET /v1/SupplierOnboardingFormTemplates/:bpNumber',
  'GET /v1/Suppliers/:supplierBusinessPartnerNo/logo',
  'GET /v1/Media/Products/:productNo/:file',
  'GET /v1/Reports/Download/:id',
];

let t: TestApp;
let ctx: MatrixContext;

beforeAll(async () => {
  t = await startTestApp();
  const fixtures = new Map<string, Promise<unknown>>();
  ctx = {
    t,
    sql: async (text, params = []) => (await t.pool.query(text, params)).rows,
    once: (key, create) => {
      if (!fixtures.has(key)) fixtures.set(key, create());
      return fixtures.get(key) as Promise<never>;
    },
  };
});
afterAll(async () => {
  await t?.close();
});

function urlOf(route: string, request: MatrixRequest): string {
  const [, path] = route.split(' ');
  const filled = path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(String(request.params?.[name])),
  );
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(request.query ?? {})) {
    for (const v of [value].flat()) query.append(key, String(v));
  }
  return query.size ? `${filled}?${query}` : filled;
}

/** How a sample is sent: an IDS sample with its own token or the shared IDS session's, a role as its demo user. */
async function credentialsOf(role: RoleName | 'Anonymous' | 'Ids', request: MatrixRequest) {
  if (role === 'Ids') return { token: request.token ?? (await idsSession(ctx)).token };
  return { as: role === 'Anonymous' ? undefined : (request.user ?? demoUsers[role]) };
}

describe('downloads', () => {
  it('every non-JSON answer of a GET route is an attachment with nosniff', async () => {
    const files: string[] = [];
    const problems: string[] = [];
    for (const [key, entry] of Object.entries(roleMatrix)) {
      if (!key.startsWith('GET ')) continue;
      // The first sample, which may be the IDS column's: it is sent with an IDS session's token, not as a user.
      const [role, sample] = Object.entries(entry).find(([column]) => column !== 'IdsRefused') as [
        RoleName | 'Anonymous' | 'Ids',
        (typeof entry)[RoleName],
      ];
      const request = typeof sample === 'function' ? await sample(ctx) : sample!;
      const res = await t.request('GET', urlOf(key, request), await credentialsOf(role, request));
      if (res.status < 200 || res.status >= 300) {
        problems.push(`${key} as ${role}: HTTP ${res.status}`);
        continue;
      }
      const type = res.headers.get('content-type') ?? '';
      if (res.status === 204 || /json/.test(type)) continue;
      files.push(key);
      if (!/^attachment/.test(res.headers.get('content-disposition') ?? ''))
        problems.push(`${key}: Content-Disposition ${res.headers.get('content-disposition')} (${type})`);
      if (res.headers.get('x-content-type-options') !== 'nosniff') problems.push(`${key}: no nosniff (${type})`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(DOWNLOAD_ROUTES));
  });
});
