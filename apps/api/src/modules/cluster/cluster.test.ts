import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSecondRuntime, startTestApp, type TestApp } from '../../../test/support/test-app.ts';

/**
 * What two API processes on one database share besides the domain data: rate-limit counters and the generated keys
 * (cluster_secrets). The second process is what a second node behind the same load balancer is.
 */
let t: TestApp;
let second: Awaited<ReturnType<typeof startSecondRuntime>>;
beforeAll(async () => {
  t = await startTestApp();
  // As a second node starts: its own DATA_DIR, no configured keys (it must find the first node's in the database).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-second-node-'));
  second = await startSecondRuntime({
    databaseUrl: t.databaseUrl,
    config: { ...t.config, dataDir, workflowSecretKey: undefined, as2: { ...t.config.as2, shared: undefined } },
  });
}, 120_000);
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const BUYER = 'einkauf@example.com';

describe('rate limits across nodes', () => {
  it('mail-sending calls count once for both nodes: 3 on one and 3 on the other make the sixth a 429', async () => {
    const token = await t.token(BUYER);
    const body = { message: 'Neue Telefonnummer', email: 'buchhaltung@example.com', phoneNumber: '+49 221 555-0' };
    const statuses: number[] = [];
    for (const base of [t.baseUrl, t.baseUrl, t.baseUrl, second.baseUrl, second.baseUrl, second.baseUrl]) {
      const res = await fetch(`${base}/v1/SupportRequests/PartnerDataChange`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('shared keys', () => {
  it('both nodes use one workflow secret key and one AS2 identity, stored once', async () => {
    expect(second.config.workflowSecretKey).toBe(t.config.workflowSecretKey);
    expect(second.config.as2.shared?.certPem).toBe(t.config.as2.shared?.certPem);
    const { rows } = await t.pool.query<{ name: string }>('SELECT name FROM cluster_secrets ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(['as2_identity', 'identity_keys', 'workflow_secret_key']);
  });
});
