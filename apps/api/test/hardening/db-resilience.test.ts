import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { inject } from 'vitest';
import { startTestApp, eventually, type TestApp } from '../support/test-app.ts';

const BUYER = 'einkauf@example.com';

/** Ends every connection the API holds to its database, as a Postgres restart or failover would. */
async function terminateAll(databaseUrl: string) {
  const database = new URL(databaseUrl).pathname.slice(1);
  const admin = new pg.Client({ connectionString: inject('pgAdminUrl') });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    return rows.length;
  } finally {
    await admin.end();
  }
}

describe('database connections ended under load', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Twelve parallel requests of one user: above the default per-user limit of requests in flight (fair use).
    t = await startTestApp({ env: { MAX_REQUESTS_IN_FLIGHT_PER_USER: '16' } });
    await t.token(BUYER);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps serving: only 200 or 503 problems while connections die, 200 afterwards, jobs still run', async () => {
    const statuses = new Map<number, number>();
    const bad: string[] = [];
    let running = true;
    const worker = async () => {
      while (running) {
        const res = await t.request('GET', '/v1/UserProfile', { as: BUYER });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status !== 200) {
          const problem = res.headers.get('content-type')?.includes('application/problem+json');
          if (res.status !== 503 || !problem) bad.push(`${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    };
    const workers = Array.from({ length: 12 }, worker);
    let ended = 0;
    for (let round = 0; round < 4; round++) {
      await new Promise((r) => setTimeout(r, 400));
      ended += await terminateAll(t.databaseUrl);
    }
    await new Promise((r) => setTimeout(r, 400));
    running = false;
    await Promise.all(workers);
    expect(ended).toBeGreaterThan(0);
    expect(bad).toEqual([]);
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);

    const after = await t.request('GET', '/v1/UserProfile', { as: BUYER });
    expect(after.status).toBe(200);

    // pg-boss lost its connections too: a queued mail must still be delivered.
    const sent = await t.request('POST', '/v1/SupportRequests/PartnerDataChange', {
      as: BUYER,
      body: { message: 'Bitte die Adresse ändern.', email: 'einkauf@example.com' },
    });
    expect(sent.status).toBe(201);
    await eventually(async () => {
      const { rows } = await t.pool.query(
        `SELECT m.status FROM support_requests s JOIN mail_outbox m ON m.id = s.mail_id WHERE s.id = $1`,
        [sent.body.id],
      );
      return rows[0]?.status === 'sent';
    }, 20_000);
  }, 60_000);
});

/** A loopback TCP relay to Postgres that the test can cut and restore (the database "goes away"). */
function relay(target: { host: string; port: number }) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const open = (port: number) =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  return {
    open: (port: number) => (server ? Promise.resolve() : open(port)),
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        if (!server) return resolve();
        server.close(() => resolve());
        server = null;
      }),
  };
}

describe('database away', () => {
  let t: TestApp;
  let proxy: ReturnType<typeof relay>;
  let proxyPort: number;
  beforeAll(async () => {
    const admin = new URL(inject('pgAdminUrl'));
    proxy = relay({ host: admin.hostname, port: Number(admin.port) });
    // A fixed port for the relay so the API's URL stays valid across cut/restore.
    proxyPort = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    await proxy.open(proxyPort);
    t = await startTestApp({ databaseHost: `127.0.0.1:${proxyPort}` });
    await t.token(BUYER);
  });
  afterAll(async () => {
    await proxy?.open(proxyPort).catch(() => {});
    await t?.close();
    await proxy?.cut();
  });

  it('answers 503 problem+json while the database is unreachable and recovers by itself', async () => {
    expect((await t.request('GET', '/v1/UserProfile', { as: BUYER })).status).toBe(200);
    await proxy.cut();
    // The profile is kept by the read-model cache while its LISTEN connection (also cut) is up: from the moment the
    // process notices the lost connection, nothing is served from memory.
    await eventually(async () => !t.app.readModels.connected, 5_000);
    const away = await t.request('GET', '/v1/UserProfile', { as: BUYER });
    expect(away.status).toBe(503);
    expect(away.headers.get('content-type')).toContain('application/problem+json');
    expect(away.headers.get('retry-after')).toBe('5');
    expect(away.body).toMatchObject({ status: 503, title: 'Der Dienst ist vorübergehend nicht verfügbar.' });
    expect((await t.request('GET', '/ready')).status).toBe(503);

    await proxy.open(proxyPort);
    const back = await eventually(async () => {
      const res = await t.request('GET', '/v1/UserProfile', { as: BUYER });
      return res.status === 200 ? res : null;
    });
    expect(back.body).toMatchObject({ email: BUYER });
  }, 60_000);
});
