/**
 * Disk stays bounded: a zip that would unpack beyond the limits (ratio and absolute size) ends Failed with a German
 * reason before a byte is unpacked; the upload and unpacked files of every ended import are removed, and at start a
 * sweep removes files no unfinished import names. The zip bomb is built here with Info-ZIP's `zip` (Debian).
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startSecondRuntime, startTestApp, type TestApp } from '../../../test/support/test-app.ts';
import { insertImport } from './catalogue-import.repo.ts';
import { runImport } from './import-pipeline.ts';

const ADMIN = 'admin@example.com';
const hasZip = (() => {
  try {
    execFileSync('zip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (!hasZip)
  console.warn('import-disk.test: Info-ZIP `zip` fehlt (apt-get install zip); der ZIP-Bomben-Test wird übersprungen.');

let t: TestApp;
let work: string;
beforeAll(async () => {
  t = await startTestApp();
  work = fs.mkdtempSync(path.join(t.config.dataDir, 'work-'));
});
afterAll(async () => {
  await t?.close();
});

const uploadDir = () => path.join(t.config.dataDir, 'catalogue-imports');
const uploads = () => (fs.existsSync(uploadDir()) ? fs.readdirSync(uploadDir()) : []);

async function upload(name: string, content: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(content)]), name);
  const res = await t.request('POST', '/v1/Suppliers/200002/CatalogueImports', { as: ADMIN, body: form });
  expect(res.status, res.text).toBe(202);
  return eventually(async () => {
    const r = await t.request('GET', `/v1/Suppliers/200002/CatalogueImports/${res.body.id}`, { as: ADMIN });
    return ['Completed', 'Failed'].includes(r.body.status) ? r.body : null;
  }, 30_000);
}

/** A zip of one 200 MB file of zeros (a sparse file: nothing written) — about 200 KB, 1,000 times smaller. */
function zipBomb(): string {
  const dir = fs.mkdtempSync(path.join(work, 'bomb-'));
  const inner = path.join(dir, 'katalog.xml');
  fs.closeSync(fs.openSync(inner, 'w'));
  fs.truncateSync(inner, 200 * 1024 * 1024);
  const zip = path.join(dir, 'bombe.zip');
  execFileSync('zip', ['-q', '-j', zip, inner]);
  fs.rmSync(inner);
  return zip;
}

describe.skipIf(!hasZip)('a zip bomb', () => {
  it('ends Failed with a German reason, nothing unpacked and nothing left on disk (ratio limit, default 100×)', async () => {
    const zip = zipBomb();
    expect(fs.statSync(zip).size).toBeLessThan(1024 * 1024);
    const result = await upload('bombe.zip', fs.readFileSync(zip));
    expect(result.status).toBe('Failed');
    expect(result.error).toBe(
      'Die ZIP-Datei ist verdächtig stark komprimiert (entpackt mehr als das 100-Fache ihrer Größe) und wurde nicht entpackt.',
    );
    // Removed right after the import ended (its status is saved first).
    await eventually(async () => uploads().length === 0, 10_000);
  });

  it('breaks off a zip that declares less than it unpacks to, and removes what was unpacked', async () => {
    // The same bomb, its entry's size patched to 1,000 bytes in the local header and the central directory.
    const zip = Buffer.from(fs.readFileSync(zipBomb()));
    expect(zip.readUInt32LE(0)).toBe(0x04034b50);
    zip.writeUInt32LE(1000, 22);
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt32LE(1000, central + 24);
    const result = await upload('luege.zip', zip);
    expect(result).toMatchObject({
      status: 'Failed',
      error: 'Die ZIP-Datei ist beschädigt und konnte nicht entpackt werden.',
    });
    await eventually(async () => uploads().length === 0, 10_000);
  });

  it('ends Failed above the absolute limit even at a harmless ratio', async () => {
    const zip = path.join(work, 'gross.zip');
    fs.copyFileSync(zipBomb(), zip);
    const id = await insertImport(t.pool, { supplier: '200002', fileName: 'gross.zip', filePath: zip, userId: null });
    await runImport(t.pool, id, { unzipLimits: { maxRatio: 10_000, maxBytes: 50 * 1024 * 1024 } });
    const [row] = (await t.pool.query('SELECT status, error FROM catalogue_imports WHERE id = $1', [id])).rows;
    expect(row).toEqual({
      status: 'Failed',
      error:
        'Die ZIP-Datei würde entpackt 200 MB belegen; erlaubt sind höchstens 50 MB. Bitte teilen Sie den Katalog auf oder packen Sie weniger Mediendateien hinein.',
    });
    expect(fs.existsSync(`${zip}.d`)).toBe(false);
    // The operator's own file (CLI) stays; only the unpacked files go.
    expect(fs.existsSync(zip)).toBe(true);
  });
});

describe('files of ended imports', () => {
  it('removes the upload of a failed import', async () => {
    const result = await upload('kein-katalog.txt', Buffer.from('Dies ist kein Katalog.\n'));
    expect(result.status).toBe('Failed');
    // Removed right after the import ended (its status is saved first).
    await eventually(async () => uploads().length === 0, 10_000);
  });

  it('removes the upload and the unpacked zip of a completed import', async () => {
    const zip = fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'zip-catalogue.zip'));
    const result = await upload('katalog.zip', zip);
    expect(result.status).toBe('Completed');
    // Removed right after the import ended (its status is saved first).
    await eventually(async () => uploads().length === 0, 10_000);
  });

  it('at start removes files no unfinished import names (old enough not to be an upload being written)', async () => {
    fs.mkdirSync(uploadDir(), { recursive: true });
    const old = new Date(Date.now() - 60 * 60_000);
    const file = (name: string, mtime?: Date) => {
      const f = path.join(uploadDir(), name);
      if (name.endsWith('.d')) {
        fs.mkdirSync(f, { recursive: true });
        fs.writeFileSync(path.join(f, 'bild.jpg'), 'x');
      } else fs.writeFileSync(f, 'x');
      if (mtime) fs.utimesSync(f, mtime, mtime);
      return f;
    };
    file('1-verwaist.upload', old);
    file('1-verwaist.upload.d', old);
    file('2-frisch.upload');
    const pending = file('3-wartet.upload', old);
    // An import still to run keeps its file (no job: nothing runs it during the test).
    await insertImport(t.pool, { supplier: '200003', fileName: 'wartet.xml', filePath: pending, userId: null });
    const second = await startSecondRuntime(t);
    try {
      await eventually(async () => uploads().length === 2, 20_000);
      expect(uploads().sort()).toEqual(['2-frisch.upload', '3-wartet.upload']);
    } finally {
      await second.close();
    }
  });
});

describe('an import that keeps crashing', () => {
  it('ends Failed with a German reason after its last attempt, and its upload is removed', async () => {
    fs.mkdirSync(uploadDir(), { recursive: true });
    const file = path.join(uploadDir(), 'abgebrochen.upload');
    fs.copyFileSync(path.join(import.meta.dirname, 'fixtures', 'new-catalog.xml'), file);
    const id = await insertImport(t.pool, {
      supplier: '200003',
      fileName: 'katalog.xml',
      filePath: file,
      userId: null,
    });
    // Five attempts died with their process (a crash leaves the import InProgress).
    await t.pool.query(`UPDATE catalogue_imports SET status = 'InProgress', attempts = 5 WHERE id = $1`, [id]);
    await runImport(t.pool, id, { maxAttempts: 5 });
    const [row] = (await t.pool.query('SELECT status, error FROM catalogue_imports WHERE id = $1', [id])).rows;
    expect(row).toEqual({
      status: 'Failed',
      error:
        'Der Import wurde 5-mal abgebrochen (Neustart oder Absturz des Servers) und wird nicht mehr fortgesetzt. Bitte laden Sie die Datei erneut hoch.',
    });
    expect(fs.existsSync(file)).toBe(false);
  });
});

describe('a file that is gone', () => {
  it('ends the import Failed with a German reason, not the system’s message', async () => {
    const file = path.join(uploadDir(), 'verschwunden.upload');
    const id = await insertImport(t.pool, {
      supplier: '200003',
      fileName: 'katalog.xml',
      filePath: file,
      userId: null,
    });
    await runImport(t.pool, id);
    const [row] = (await t.pool.query('SELECT status, error FROM catalogue_imports WHERE id = $1', [id])).rows;
    expect(row).toEqual({
      status: 'Failed',
      error: 'Die hochgeladene Datei ist nicht mehr vorhanden. Bitte laden Sie sie erneut hoch.',
    });
  });
});
