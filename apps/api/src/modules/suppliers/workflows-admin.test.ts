import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, outboundMessages, workflowMessages } from '@shk/contracts';
import { startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import {
  startFtpPeer,
  startHttpPeer,
  startSftpPeer,
  type FtpPeer,
  type HttpPeer,
  type SftpPeer,
} from '../../../test/support/transmission-peers.ts';

let t: TestApp;
let ftp: FtpPeer;
let sftp: SftpPeer;
let http: HttpPeer;
const ADMIN = 'admin@example.com';

beforeAll(async () => {
  [t, ftp, sftp, http] = await Promise.all([
    startTestApp({ env: { TRANSMISSION_ALLOWED_HOSTS: '127.0.0.1' } }),
    startFtpPeer(),
    startSftpPeer(),
    startHttpPeer(),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), ftp?.close(), sftp?.close(), http?.close()]);
});

const create = (body: Record<string, unknown>) => t.request('POST', '/v1/Workflow', { as: ADMIN, body });
const test = (id: number) => t.request('POST', `/v1/Workflow/${id}/Test`, { as: ADMIN });

describe('workflows (connection profiles) on /admin', () => {
  it('creates a profile; the secret is stored encrypted and never returned', async () => {
    const res = await create({
      name: 'Lieferant FTP',
      communicationProtocol: 5,
      host: '127.0.0.1',
      port: ftp.port,
      userName: ftp.user,
      password: ftp.password,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Lieferant FTP', hasSecret: true, secretKind: 'password' });
    expect(JSON.stringify(res.body)).not.toContain(ftp.password);
    const { rows } = await t.pool.query('SELECT secret_encrypted FROM workflows WHERE id = $1', [res.body.id]);
    expect(rows[0].secret_encrypted).not.toContain(ftp.password);
    const list = await t.request('GET', '/v1/Workflow?communicationProtocol=5', { as: ADMIN });
    expect(JSON.stringify(list.body)).not.toContain(ftp.password);
  });

  it('validates the input with German messages', async () => {
    const res = await create({ name: '', communicationProtocol: 2 });
    expect(res.status).toBe(400);
    const byField = Object.fromEntries(res.body.errors.map((e: any) => [e.field, e.message]));
    expect(byField['body.name']).toBe(messages.required);
    expect(byField['body.host']).toBe(messages.required);
    const http = await create({ name: 'API', communicationProtocol: 6, baseUrl: 'kein-url' });
    expect(http.body.errors[0]).toMatchObject({ field: 'body.baseUrl', message: messages.checkInput });
  });

  it("'Verbindung testen' logs in to real FTP and SFTP peers and reaches an HTTP endpoint", async () => {
    const ftpOk = await create({
      name: 'FTP ok',
      communicationProtocol: 5,
      host: '127.0.0.1',
      port: ftp.port,
      userName: ftp.user,
      password: ftp.password,
    });
    expect((await test(ftpOk.body.id)).body).toMatchObject({ ok: true, message: workflowMessages.testOk });

    const ftpBad = await create({
      name: 'FTP falsch',
      communicationProtocol: 5,
      host: '127.0.0.1',
      port: ftp.port,
      userName: ftp.user,
      password: 'falsch',
    });
    const failed = await test(ftpBad.body.id);
    expect(failed.body.ok).toBe(false);
    expect(failed.body.message).toBe(outboundMessages.connectionFailed(outboundMessages.authFailed));

    const sftpOk = await create({
      name: 'SFTP',
      communicationProtocol: 2,
      host: '127.0.0.1',
      port: sftp.port,
      userName: sftp.user,
      password: sftp.password,
    });
    expect((await test(sftpOk.body.id)).body.ok).toBe(true);

    const api = await create({ name: 'API', communicationProtocol: 6, baseUrl: http.url });
    expect((await test(api.body.id)).body.ok).toBe(true);
    http.mode = 'down';
    expect((await test(api.body.id)).body).toMatchObject({
      ok: false,
      message: workflowMessages.testFailed('HTTP 503'),
    });
    http.mode = 'up';
  });

  it('keeps the secret when an update omits it, and refuses deleting a profile suppliers use', async () => {
    const created = await create({
      name: 'SFTP 2',
      communicationProtocol: 2,
      host: '127.0.0.1',
      port: sftp.port,
      userName: sftp.user,
      password: sftp.password,
    });
    const renamed = await t.request('PUT', `/v1/Workflow/${created.body.id}`, {
      as: ADMIN,
      body: {
        name: 'SFTP Zentrale',
        communicationProtocol: 2,
        host: '127.0.0.1',
        port: sftp.port,
        userName: sftp.user,
      },
    });
    expect(renamed.body).toMatchObject({ name: 'SFTP Zentrale', hasSecret: true });
    expect((await test(created.body.id)).body.ok).toBe(true);

    await t.pool.query("UPDATE suppliers SET workflow_id = $1 WHERE bp_number = '200009'", [created.body.id]);
    const refused = await t.request('DELETE', `/v1/Workflow/${created.body.id}`, { as: ADMIN });
    expect(refused.status).toBe(409);
    expect(refused.body.title).toBe(workflowMessages.inUse('200009'));
    await t.pool.query("UPDATE suppliers SET workflow_id = NULL WHERE bp_number = '200009'");
    expect((await t.request('DELETE', `/v1/Workflow/${created.body.id}`, { as: ADMIN })).status).toBe(204);
    expect((await t.request('DELETE', `/v1/Workflow/${created.body.id}`, { as: ADMIN })).status).toBe(404);
  });

  it('is for administrators only', async () => {
    for (const as of ['support@example.com', 'betrieb@example.com', 'verkauf@example.com', 'einkauf@example.com']) {
      const res = await t.request('POST', '/v1/Workflow', {
        as,
        body: { name: 'x', communicationProtocol: 6, baseUrl: 'http://x' },
      });
      expect(res.status, as).toBe(403);
    }
  });
});
