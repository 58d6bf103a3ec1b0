/**
 * Finds the catalogue in an upload (an XML or DATANORM file, or a zip with the XML and its media)
 * and returns its format's event reader.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { catalogueImportFailureTexts, catalogueImportMessages } from '@shk/contracts';
import { readHead } from './formats/charset.ts';
import { readBmecat } from './formats/bmecat/bmecat-parser.ts';
import { looksLikeDatanorm, readDatanorm } from './formats/datanorm/datanorm-parser.ts';
import type { ImportEvent } from './import.types.ts';

export class ImportFileError extends Error {}

/** How large an upload may unpack: a multiple of the zip's own size, and an absolute limit. */
export interface UnzipLimits {
  maxRatio: number;
  maxBytes: number;
}

/** Defaults that fit a real catalogue with its pictures (config.ts: CATALOGUE_IMPORT_UNZIP_MAX_*). */
export const DEFAULT_UNZIP_LIMITS: UnzipLimits = { maxRatio: 100, maxBytes: 20 * 1024 ** 3 };

export async function openCatalogue(
  file: string,
  limits: UnzipLimits = DEFAULT_UNZIP_LIMITS,
): Promise<{ events: AsyncGenerator<ImportEvent>; mediaDir: string | null; catalogue: string }> {
  let head = await readHead(file);
  let catalogue = file;
  let mediaDir: string | null = null;
  if (head[0] === 0x50 && head[1] === 0x4b) {
    mediaDir = `${file}.d`;
    try {
      catalogue = await unzip(file, mediaDir, limits);
    } catch (error) {
      // Nothing of a refused or broken zip stays on disk.
      await fs.promises.rm(mediaDir, { recursive: true, force: true });
      throw error instanceof ImportFileError ? error : new ImportFileError(catalogueImportFailureTexts.zipBroken);
    }
    head = await readHead(catalogue);
  }
  const text = head.toString('latin1');
  if (/^(\uFEFF|\xEF\xBB\xBF)?\s*<(\?xml|BMECAT)/.test(text) || /<BMECAT/.test(text))
    return { events: readBmecat(catalogue), mediaDir, catalogue };
  if (looksLikeDatanorm(head)) return { events: readDatanorm(catalogue), mediaDir, catalogue };
  throw new ImportFileError(catalogueImportMessages.unknownFormat);
}

const MB = 1024 * 1024;

/**
 * Extracts a zip next to it (streaming); returns the catalogue file in it (the largest .xml, else DATANORM).
 * The central directory is read first: a zip whose files would unpack to more than the limits allow (a zip
 * bomb) is refused before a byte is written. yauzl checks every entry's bytes against its declared size while
 * extracting, so a zip that lies about its sizes breaks off instead of filling the disk.
 */
async function unzip(file: string, dir: string, limits: UnzipLimits): Promise<string> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, z) =>
      error ? reject(error) : resolve(z!),
    ),
  );
  try {
    const entries = await listEntries(zip);
    const unpacked = entries.reduce((sum, e) => sum + e.entry.uncompressedSize, 0);
    const zipBytes = (await fs.promises.stat(file)).size;
    if (unpacked > limits.maxBytes)
      throw new ImportFileError(
        catalogueImportFailureTexts.zipTooLarge(Math.ceil(unpacked / MB), Math.floor(limits.maxBytes / MB)),
      );
    if (unpacked > zipBytes * limits.maxRatio)
      throw new ImportFileError(catalogueImportFailureTexts.zipRatio(limits.maxRatio));
    await fs.promises.mkdir(dir, { recursive: true });
    const files: { name: string; size: number }[] = [];
    for (const { entry, name } of entries) {
      const target = path.join(dir, name);
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
        zip.openReadStream(entry, (error, s) => (error ? reject(error) : resolve(s!))),
      );
      await pipeline(stream, fs.createWriteStream(target));
      files.push({ name: target, size: entry.uncompressedSize });
    }
    const xml = files.filter((f) => /\.xml$/i.test(f.name)).sort((a, b) => b.size - a.size)[0];
    if (xml) return xml.name;
    for (const f of files) if (looksLikeDatanorm(await readHead(f.name))) return f.name;
    throw new ImportFileError(catalogueImportMessages.zipWithoutCatalogue);
  } finally {
    zip.close();
  }
}

/** The zip's files (no directories, nothing outside the target: no path traversal), from its central directory. */
async function listEntries(zip: yauzl.ZipFile): Promise<{ entry: yauzl.Entry; name: string }[]> {
  const entries: { entry: yauzl.Entry; name: string }[] = [];
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      const name = path.normalize(entry.fileName);
      if (!entry.fileName.endsWith('/') && !name.startsWith('..') && !path.isAbsolute(name))
        entries.push({ entry, name });
      zip.readEntry();
    });
    zip.readEntry();
  });
  return entries;
}
