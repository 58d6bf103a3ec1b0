/**
 * Finds the catalogue in an upload (an XML or DATANORM file, or a zip with the XML and its media)
 * and returns its format's event reader.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { catalogueImportMessages } from '@shk/contracts';
import { readHead } from './formats/charset.ts';
import { readBmecat } from './formats/bmecat/bmecat-parser.ts';
import { looksLikeDatanorm, readDatanorm } from './formats/datanorm/datanorm-parser.ts';
import type { ImportEvent } from './import.types.ts';

export class ImportFileError extends Error {}

export async function openCatalogue(
  file: string,
): Promise<{ events: AsyncGenerator<ImportEvent>; mediaDir: string | null; catalogue: string }> {
  let head = await readHead(file);
  let catalogue = file;
  let mediaDir: string | null = null;
  if (head[0] === 0x50 && head[1] === 0x4b) {
    mediaDir = `${file}.d`;
    catalogue = await unzip(file, mediaDir);
    head = await readHead(catalogue);
  }
  const text = head.toString('latin1');
  if (/^(\uFEFF|\xEF\xBB\xBF)?\s*<(\?xml|BMECAT)/.test(text) || /<BMECAT/.test(text))
    return { events: readBmecat(catalogue), mediaDir, catalogue };
  if (looksLikeDatanorm(head)) return { events: readDatanorm(catalogue), mediaDir, catalogue };
  throw new ImportFileError(catalogueImportMessages.unknownFormat);
}

/** Extracts a zip next to it (streaming); returns the catalogue file in it (the largest .xml, else DATANORM). */
async function unzip(file: string, dir: string): Promise<string> {
  await fs.promises.mkdir(dir, { recursive: true });
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, z) => (error ? reject(error) : resolve(z!))),
  );
  const files: { name: string; size: number }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = path.normalize(entry.fileName);
      if (entry.fileName.endsWith('/') || name.startsWith('..') || path.isAbsolute(name)) return zip.readEntry();
      zip.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const target = path.join(dir, name);
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await pipeline(stream!, fs.createWriteStream(target)).catch(reject);
        files.push({ name: target, size: entry.uncompressedSize });
        zip.readEntry();
      });
    });
    zip.readEntry();
  });
  const xml = files.filter((f) => /\.xml$/i.test(f.name)).sort((a, b) => b.size - a.size)[0];
  if (xml) return xml.name;
  for (const f of files) if (looksLikeDatanorm(await readHead(f.name))) return f.name;
  throw new ImportFileError(catalogueImportMessages.zipWithoutCatalogue);
}
