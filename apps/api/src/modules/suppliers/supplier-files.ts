import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { SaxesParser } from 'saxes';
import { supplierFileLimits, supplierMessages } from '@shk/contracts';
import { HttpProblem } from '../../http/problem.ts';
import { cleanFileName, verifyFileContent, verifyFileContentAt } from '../../lib/file-types.ts';

export interface CheckedFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

const fileFormatProblem = (detail?: string) =>
  new HttpProblem(400, supplierMessages.fileFormat, { type: 'fileFormat', detail });

const extension = (name: string) => name.toLowerCase().split('.').pop() ?? '';

/**
 * SVG is text, so file-type cannot vouch for it: the document is parsed and refused when it can run
 * code or pull in outside content (script, foreignObject, on* handlers, javascript:/external hrefs,
 * DOCTYPE/entities). Browsers never see the stored SVG anyway: logos are served rasterised as PNG.
 */
export function svgIssue(content: Buffer): string | null {
  const text = content.toString('utf8');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return 'DOCTYPE/ENTITY';
  const parser = new SaxesParser({ xmlns: false });
  let root: string | null = null;
  let issue: string | null = null;
  parser.on('opentag', (tag) => {
    const name = tag.name.toLowerCase().replace(/^.*:/, '');
    root ??= name;
    if (name === 'script' || name === 'foreignobject' || name === 'iframe' || name === 'embed' || name === 'object')
      issue ??= `<${name}>`;
    for (const [attr, raw] of Object.entries(tag.attributes)) {
      const a = attr.toLowerCase();
      const value = String(raw).replace(/\s/g, '').toLowerCase();
      if (a.startsWith('on')) issue ??= attr;
      if ((a === 'href' || a.endsWith(':href')) && !value.startsWith('#') && !value.startsWith('data:image/'))
        issue ??= `${attr}=${value.slice(0, 40)}`;
      if (a === 'style' && /url\(|expression\(|javascript:/.test(value)) issue ??= 'style';
    }
  });
  try {
    parser.write(text).close();
  } catch {
    return 'XML';
  }
  if (root !== 'svg') return 'no <svg> root';
  return issue;
}

/** The logo rules of §5: svg, png, jpg or jpeg, at most 1 MB, decided by the content, not the name. */
export async function checkLogo(fileName: string, content: Buffer): Promise<CheckedFile> {
  const { maxBytes, maxMb } = supplierFileLimits.logo;
  if (content.length > maxBytes)
    throw new HttpProblem(400, supplierMessages.maxFileSize(maxMb), { type: 'maxFileSize' });
  const name = cleanFileName(fileName);
  const ext = extension(name);
  const detected = await fileTypeFromBuffer(content);
  if (detected?.mime === 'image/png' && ext === 'png') return { fileName: name, contentType: 'image/png', content };
  if (detected?.mime === 'image/jpeg' && (ext === 'jpg' || ext === 'jpeg'))
    return { fileName: name, contentType: 'image/jpeg', content };
  if (!detected && ext === 'svg') {
    const issue = svgIssue(content);
    if (issue) throw fileFormatProblem(`SVG abgelehnt: ${issue}`);
    // rsvg must be able to draw it: a broken SVG would only fail later when served.
    const { default: sharp } = await import('sharp');
    await sharp(content)
      .png()
      .toBuffer()
      .catch(() => {
        throw fileFormatProblem('SVG nicht lesbar');
      });
    return { fileName: name, contentType: 'image/svg+xml', content };
  }
  throw fileFormatProblem(name);
}

/** The onboarding template: a PDF (by content) of at most 25 MB. */
export async function checkTemplate(fileName: string, content: Buffer): Promise<CheckedFile> {
  const { maxBytes, maxMb } = supplierFileLimits.template;
  if (content.length > maxBytes)
    throw new HttpProblem(400, supplierMessages.maxFileSize(maxMb), { type: 'maxFileSize' });
  const name = cleanFileName(fileName);
  const detected = await fileTypeFromBuffer(content);
  if (detected?.mime !== 'application/pdf' || extension(name) !== 'pdf') throw fileFormatProblem(name);
  // file-type reads only the magic number: the structural check refuses a PDF with an HTML page after %%EOF.
  if (!(await verifyFileContent(name, content, ['pdf']))) throw fileFormatProblem(name);
  return { fileName: name, contentType: 'application/pdf', content };
}

/** checkTemplate for an upload spooled to disk (lib/uploads/spooled-upload.ts): the same verdict, never read whole. */
export async function checkTemplateAt(fileName: string, file: { path: string; size: number }) {
  const { maxBytes, maxMb } = supplierFileLimits.template;
  if (file.size > maxBytes) throw new HttpProblem(400, supplierMessages.maxFileSize(maxMb), { type: 'maxFileSize' });
  const name = cleanFileName(fileName);
  const detected = await fileTypeFromFile(file.path);
  if (detected?.mime !== 'application/pdf' || extension(name) !== 'pdf') throw fileFormatProblem(name);
  // file-type reads only the magic number: the structural check refuses a PDF with an HTML page after %%EOF.
  if (!(await verifyFileContentAt(name, file, ['pdf']))) throw fileFormatProblem(name);
  return { fileName: name, contentType: 'application/pdf' };
}

export const logoSizes = [48, 96, 160, 320] as const;
export type LogoSize = (typeof logoSizes)[number];

/**
 * A logo fitted into a square box, as PNG (SVG, transparency) or JPEG (photos). SVGs are always
 * rasterised here, so no SVG document is ever delivered to a browser.
 */
export async function renderLogo(
  content: Buffer,
  contentType: string,
  size: LogoSize,
): Promise<{ body: Buffer; contentType: string }> {
  // Loaded on first use: sharp maps libvips (~25 MB RSS), which an API that never renders a logo does not need.
  const { default: sharp } = await import('sharp');
  const image = sharp(content, { density: contentType === 'image/svg+xml' ? 288 : undefined }).resize(size, size, {
    fit: 'inside',
    withoutEnlargement: contentType !== 'image/svg+xml',
  });
  if (contentType === 'image/jpeg') return { body: await image.jpeg({ quality: 85 }).toBuffer(), contentType };
  return { body: await image.png({ compressionLevel: 9 }).toBuffer(), contentType: 'image/png' };
}
