/**
 * Generated product media, rendered on request from the product row: PNG pictures (a category
 * pictogram in the brand's colour), PDF data sheets, manuals and 2D drawings, and a STEP file as
 * 3D data (type 3C). URLs are public and stable: /v1/Media/Products/{productNo}/{file}.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type pg from 'pg';
import { Canvas, type Rgb } from './png.ts';
import { pdfDocument } from '../../../lib/pdf.ts';
import type { MediaEntry } from '../catalogue.types.ts';
import { mediaProductRows } from '../catalogue.repo.ts';
import { LRUCache } from '../search/lru.ts';

export const mediaUrl = (productNo: number, file: string) =>
  `/v1/Media/Products/${productNo}/${encodeURIComponent(file)}`;

/** A document that is not public (price list, purpose not stated): the signed-in route. */
export const signedInMediaUrl = (productNo: number, file: string) =>
  `/v1/Documents/Products/${productNo}/${encodeURIComponent(file)}`;

/**
 * Whether a caller may have a medium that is not public: every signed-in catalogue role, except that a seller gets
 * only the documents its own catalogue delivered (a competitor's price list is a competitor's condition).
 */
export function mayHaveSignedInMedium(entry: MediaEntry, conditionsOnlyFor: string | null | undefined): boolean {
  if (conditionsOnlyFor === null || conditionsOnlyFor === undefined) return true;
  return entry.stored?.supplier === conditionsOnlyFor;
}

/** The storage key of a medium a supplier catalogue delivered (by content hash, per supplier). */
export const storedMediaKey = (supplier: string, sha256: string) =>
  `catalogue-media/${supplier.replace(/[^A-Za-z0-9_-]/g, '_')}/${sha256.replace(/[^a-f0-9]/g, '')}`;

/** Where the local storage backend keeps it under DATA_DIR. */
export const storedMediaPath = (dataDir: string, supplier: string, sha256: string) =>
  path.join(dataDir, ...storedMediaKey(supplier, sha256).split('/'));

export interface MediaProduct {
  id: number;
  productName: string;
  brandName: string;
  manufacturerPid: string;
  gtin: string | null;
  /** Element id of the top category (SHKMARKET_1 … 6) – chooses the pictogram. */
  topCategory: string;
  measures: { a: number | null; b: number | null; c: number | null };
  descr: string | null;
  media: MediaEntry[];
}

export interface RenderedMedia {
  contentType: string;
  body: Buffer;
}

/** Integer mix for stable per-product variation. */
const mix = (a: number, b: number) => {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
};

const palette: Rgb[] = [
  [0, 94, 168],
  [196, 30, 58],
  [0, 133, 96],
  [232, 119, 34],
  [94, 55, 150],
  [0, 150, 170],
  [120, 120, 120],
  [180, 140, 0],
];

function picture(p: MediaProduct, index: number): Buffer {
  const size = 160;
  const h = mix(p.id, index);
  const colour = palette[mix(p.brandName.length, p.brandName.charCodeAt(0)) % palette.length];
  const light: Rgb = [245 - (h % 12), 246 - (h % 9), 248];
  const c = new Canvas(size, size, light);
  const shade = (k: number): Rgb => [
    Math.min(255, colour[0] + k),
    Math.min(255, colour[1] + k),
    Math.min(255, colour[2] + k),
  ];
  const offset = (index - 1) * 6;
  switch (p.topCategory) {
    case 'SHKMARKET_1': // sanitary: tap
      c.rect(50 + offset, 40, 24, 70, shade(0));
      c.rect(50 + offset, 40, 70 - offset, 20, shade(30));
      c.circle(62 + offset, 118, 22, shade(60));
      break;
    case 'SHKMARKET_2': // heating: radiator
      for (let k = 0; k < 6; k++) c.rect(28 + k * 18, 35 + (k % 2) * 4, 12, 90, shade(k * 12));
      c.rect(22, 120, 118, 8, shade(40));
      break;
    case 'SHKMARKET_3': // installation: valve wheel
      c.circle(80, 80, 50 - offset, shade(0), 38 - offset);
      c.line(80, 30 + offset, 80, 130 - offset, 8, shade(20));
      c.line(30 + offset, 80, 130 - offset, 80, 8, shade(20));
      break;
    case 'SHKMARKET_4': // pipes and fittings: bend
      c.rect(20, 60 + offset, 80, 32, shade(0));
      c.rect(88, 20, 32, 80 + offset, shade(25));
      c.circle(104, 76 + offset, 16, shade(50));
      break;
    case 'SHKMARKET_5': // ventilation: fan
      c.circle(80, 80, 56, shade(0), 50);
      for (let k = 0; k < 3; k++)
        c.line(80, 80, 80 + 45 * Math.cos(k * 2.1 + index), 80 + 45 * Math.sin(k * 2.1 + index), 16, shade(30));
      c.circle(80, 80, 10, shade(60));
      break;
    default: // tools: wrench
      c.line(40 + offset, 125, 115, 45 + offset, 16, shade(0));
      c.circle(118, 42 + offset, 20, shade(20), 9);
  }
  return c.toPng();
}

function document(p: MediaProduct, entry: MediaEntry): Buffer {
  const head = [
    `Hersteller/Marke: ${p.brandName}`,
    `Werksartikelnummer: ${p.manufacturerPid}`,
    `GTIN: ${p.gtin ?? '–'}`,
    '',
  ];
  if (entry.type === '2D') {
    return pdfDocument({
      title: `Maßzeichnung – ${p.productName}`,
      lines: head,
      drawing: { width: p.measures.b ?? p.measures.a ?? 100, height: p.measures.c ?? 100 },
    });
  }
  const words = (p.descr ?? '').split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const w of words) {
    if ((line + w).length > 90) {
      lines.push(line.trim());
      line = '';
    }
    line += `${w} `;
  }
  if (line.trim()) lines.push(line.trim());
  return pdfDocument({ title: `${entry.type} – ${p.productName}`, lines: [...head, ...lines] });
}

function step(p: MediaProduct): Buffer {
  const name = p.productName.replace(/[^\x20-\x7e]/g, '?').replace(/'/g, '');
  return Buffer.from(
    [
      'ISO-10303-21;',
      'HEADER;',
      `FILE_DESCRIPTION(('3D-Modell ${name}'),'2;1');`,
      `FILE_NAME('${p.manufacturerPid.replace(/'/g, '')}.stp','2024-01-01T00:00:00',('SHK-Bestellportal'),(''),'','','');`,
      "FILE_SCHEMA(('AUTOMOTIVE_DESIGN'));",
      'ENDSEC;',
      'DATA;',
      `#1=CARTESIAN_POINT('',(0.,0.,0.));`,
      `#2=CARTESIAN_POINT('',(${p.measures.a ?? 100}.,${p.measures.b ?? 100}.,${p.measures.c ?? 100}.));`,
      'ENDSEC;',
      'END-ISO-10303-21;',
      '',
    ].join('\n'),
    'latin1',
  );
}

const rendered = new LRUCache<string, RenderedMedia>({ max: 300 });
/**
 * Sizes of rendered media, far more of them than bodies: every product page lists the size of each medium, and
 * rendering a data sheet only to count its bytes cost ~30 ms of CPU per PDF (bench:hot, 50 users walking through
 * distinct products spent half the API's time in pdfkit). A size is a number, so 100,000 of them stay small.
 */
const renderedSizes = new LRUCache<string, number>({ max: 100_000 });

/** The medium's identity including what it is rendered from, so a changed product never reuses an old render. */
function renderKey(p: MediaProduct, entry: MediaEntry): string {
  const source = createHash('sha1').update(JSON.stringify(p)).update('\0').update(JSON.stringify(entry));
  return `${p.id}/${entry.file}/${source.digest('base64url')}`;
}

export function renderMedia(p: MediaProduct, entry: MediaEntry): RenderedMedia {
  const key = renderKey(p, entry);
  const hit = rendered.get(key);
  if (hit) return hit;
  let result: RenderedMedia;
  if (entry.type === 'picture')
    result = { contentType: 'image/png', body: picture(p, Number(entry.file.match(/_(\d+)\.png$/)?.[1] ?? 1)) };
  else if (entry.type === '3C') result = { contentType: 'model/step', body: step(p) };
  else result = { contentType: 'application/pdf', body: document(p, entry) };
  rendered.set(key, result);
  renderedSizes.set(key, result.body.length);
  return result;
}

/** Bytes of a generated medium, rendered only the first time (the same bytes a download gets). */
export function renderedMediaSize(p: MediaProduct, entry: MediaEntry): number {
  return renderedSizes.get(renderKey(p, entry)) ?? renderMedia(p, entry).body.length;
}

export async function loadMediaProducts(
  pool: pg.Pool,
  ids: number[],
  topCategoryOf: (leafNo: number) => string,
): Promise<Map<number, MediaProduct>> {
  if (!ids.length) return new Map();
  const rows = await mediaProductRows(pool, ids);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        productName: r.product_name,
        brandName: r.brand,
        manufacturerPid: r.manufacturer_pid,
        gtin: r.gtin,
        topCategory: topCategoryOf(r.leaf_no),
        measures: { a: r.measure_a_mm, b: r.measure_b_mm, c: r.measure_c_mm },
        descr: r.product_descr,
        media: r.media,
      },
    ]),
  );
}
