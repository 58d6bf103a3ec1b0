import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAcceptedFile, isAcceptedFileAt, verifyFileContent, verifyFileContentAt } from '../../src/lib/file-types.ts';
import { neutraliseCsvUpload, neutraliseCsvUploadFile } from '../../src/lib/uploads/csv-safe.ts';

/**
 * Uploads are checked on a scratch file on disk, chunk by chunk (64 KiB), no longer in memory: every check must give
 * the verdict the in-memory check gives, also where what it looks for is cut by a chunk's end.
 */
const CHUNK = 64 * 1024;
const ALL = ['pdf', 'png', 'jpg', 'jpeg', 'xls', 'xlsx', 'docx', 'csv', 'txt', 'svg', 'gif'];
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1');
const padTo = (length: number, prefix: string, fill = 'a') =>
  Buffer.from(prefix + fill.repeat(Math.max(0, length - prefix.length)), 'latin1');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'uploads-on-disk-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function onDisk(content: Buffer) {
  const path = join(dir, `${Math.random()}`);
  await writeFile(path, content);
  return { path, size: content.length };
}

async function cases(): Promise<[string, Buffer][]> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('Tabelle').addRow(['Artikel', 1]);
  const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
  const textCase = (name: string, before: number, marker: string) => [
    name,
    Buffer.concat([padTo(before, 'Artikel;Menge\n'), Buffer.from(marker, 'latin1'), Buffer.from(';1\n')]),
  ];
  return [
    ['rechnung.pdf', pdf],
    ['rechnung.pdf', Buffer.concat([pdf, Buffer.from(' \r\n\0\xa0'.repeat(30_000), 'latin1')])],
    ['rechnung.pdf', Buffer.concat([pdf, Buffer.from(' '.repeat(2 * CHUNK)), Buffer.from('<html>')])],
    ['rechnung.pdf', Buffer.concat([padTo(3 * CHUNK, '%PDF-1.4\n'), Buffer.from('%%EOF')])],
    ['rechnung.pdf', Buffer.concat([padTo(CHUNK - 2, '%PDF-1.4\n'), Buffer.from('%%EOF'), Buffer.from(' x')])],
    ['rechnung.pdf', Buffer.from('%PDF-1.4 kein Ende')],
    ['rechnung.pdf', Buffer.from('EOF')],
    ['leer.csv', Buffer.alloc(0)],
    ['liste.csv', padTo(3 * CHUNK, 'Artikel;Menge\n', 'x;1\n')],
    textCase('liste.csv', CHUNK - 3, '<script>'),
    textCase('liste.csv', CHUNK - 1, '<  \n script>'),
    textCase('liste.csv', CHUNK - 2, `<${' '.repeat(CHUNK + 5)}iframe>`),
    textCase('liste.csv', CHUNK - 6, 'javascript:'),
    textCase('liste.txt', CHUNK - 4, '<!doctype   html'),
    textCase('liste.txt', CHUNK - 4, '<!doctype   xml'),
    textCase('liste.csv', CHUNK - 4, `<${'b'.repeat(100)} script>`),
    ['liste.csv', Buffer.concat([padTo(CHUNK + 7, 'a;b\n'), Buffer.from([0]), Buffer.from('\n')])],
    ['tabelle.xlsx', xlsx],
    [
      'tabelle.xlsx',
      Buffer.concat([Buffer.from('PK\u0003\u0004'), padTo(CHUNK - 10, ''), Buffer.from('[Content_Types].xml xl/')]),
    ],
    ['tabelle.xlsx', Buffer.from('PK\u0003\u0004 nur ein Zip-Kopf')],
    ['bild.png', pdf],
    ['logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>')],
    ['logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="x()"></svg>')],
  ] as [string, Buffer][];
}

describe('the checks of a spooled upload give the in-memory verdicts', () => {
  it('isAcceptedFile and verifyFileContent', async () => {
    for (const [name, content] of await cases()) {
      const file = await onDisk(content);
      const label = `${name} (${content.length} bytes)`;
      expect(await isAcceptedFileAt(name, file, ALL), label).toBe(isAcceptedFile(name, content, ALL));
      expect(await verifyFileContentAt(name, file, ALL), label).toBe(await verifyFileContent(name, content, ALL));
    }
  });

  it('CSV neutralisation: the same bytes stored, the same refusals', async () => {
    const latin1 = Buffer.from('Artikel;Menge;Hinweis\r\nWärme;1;=HYPERLINK("x")\r\nÖl;-3,5;@SUM(A1)\r\n', 'latin1');
    const bomUtf8 = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from('a,b\n"=1+1",ä\n+49 30,"x ""y"""\n'.repeat(5000)),
    ]);
    const latin1WithBomBytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xe4]), Buffer.from(';=1\n')]);
    for (const [name, content] of [
      ['liste.csv', latin1],
      ['liste.csv', bomUtf8],
      ['liste.csv', latin1WithBomBytes],
      ['liste.csv', Buffer.from('a\tb\n-x\t2\n')],
      ['liste.csv', Buffer.from('a;b\n1;2\n')],
      ['liste.csv', Buffer.from('a;"b\n1;2')],
      ['liste.csv', Buffer.alloc(0)],
      ['bild.png', Buffer.from('=nicht geprüft')],
    ] as const) {
      const expected = await neutraliseCsvUpload(name, content);
      const stream = await neutraliseCsvUploadFile(name, (await onDisk(content)).path);
      if (expected === null) expect(stream, name).toBeNull();
      else expect((await buffer(stream!())).equals(expected), `${name}: ${await text(stream!())}`).toBe(true);
    }
  });
});
