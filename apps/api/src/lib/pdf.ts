import fs from 'node:fs';
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import type PDFKit from 'pdfkit';

const require = createRequire(import.meta.url);
/**
 * pdfkit (with fontkit ~20 MB RSS) is loaded on the first document, not when the API starts: most API processes
 * render no PDF for a long time (order documents are rendered by the transmission worker, data sheets on demand).
 */
let PDFDocument: typeof PDFKit | undefined;
const pdfkit = () => (PDFDocument ??= require('pdfkit') as typeof PDFKit);

/** DejaVu Sans ships in the npm package dejavu-fonts-ttf: umlauts, ß and € render without a system font. */
export const pdfFonts = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};

export type PdfKitDocument = InstanceType<typeof PDFKit>;

/** Read once per process: every order document embeds (a subset of) the same fonts. */
let fontData: { regular: Buffer; bold: Buffer } | null = null;

type FontName = 'regular' | 'bold';
/** pdfkit's per-document font object (EmbeddedFont): the parsed font plus this document's subset. */
interface PdfKitFont {
  font: FontkitFont;
  name: string;
  /** fontkit's subset of this document: the glyphs its text used, embedded when the document ends. */
  subset: TTFSubset;
  /** fontkit's layout (shaping) of one word, scaled to 1000 units per em; pdfkit only reads the result. */
  layoutRun(text: string): object;
  /** pdfkit's per-document word cache in front of layoutRun (an object per EmbeddedFont). */
  layoutCached(text: string): object;
}
interface PdfKitFontState {
  _fontFamilies: Record<string, PdfKitFont>;
  _fontCount: number;
}
type EmbeddedFontClass = new (doc: PdfKitDocument, font: FontkitFont, id: string) => PdfKitFont;

/** The parts of fontkit's TrueType font and subset (fontkit 2.0, TTFSubset) the glyph cache below uses. */
interface FontkitGlyph {
  advanceWidth: number;
  _decode(): { numberOfContours: number; components?: { glyphID: number; pos: number }[] } | null;
  _getMetrics(): { leftBearing: number };
}
interface FontkitFont {
  loca: { offsets: number[] };
  _variationProcessor?: unknown;
  getGlyph(id: number): FontkitGlyph;
  _getTableStream(tag: string): { pos: number; readBuffer(length: number): Uint8Array };
}
interface TTFSubset {
  glyf?: Uint8Array[];
  loca?: { offsets: number[] };
  hmtx?: { metrics: { advance: number; bearing: number }[] };
  offset?: number;
  includeGlyph(id: number): number;
  _addGlyph(id: number): number;
}
/** One glyph as a subset copies it: its glyf bytes, the components of a composite glyph, its metrics. */
interface SubsetGlyph {
  bytes: Uint8Array;
  components: { glyphID: number; pos: number }[] | null;
  advance: number;
  bearing: number;
}

/**
 * The fonts parsed by fontkit, shared by every document of this process. pdfkit parses the font file anew
 * for each document and fontkit then decodes its layout tables (GSUB/GPOS) again on the first line of text:
 * for an order PDF with DejaVu that was about 40 % of its CPU time (bench:transmission profile). A parsed
 * fontkit font is not changed by rendering (tables are decoded once and cached on it), and each document
 * still gets its own EmbeddedFont with its own subset, so sharing it changes nothing in the output.
 * pdfkit has no public way to hand in a parsed font; this uses the class of the font it opened itself and
 * its per-document font table (documents.test.ts renders documents one after another and reads them back).
 */
let parsedFonts: { regular: PdfKitFont; bold: PdfKitFont; EmbeddedFont: EmbeddedFontClass } | null = null;

/** Words kept per font in the shared layout cache (a bounded set: order numbers, names and prices vary). */
export const layoutCacheWords = 5000;
/**
 * The word layouts of each font, shared by every document of this process. pdfkit lays out (shapes with fontkit:
 * cmap, GSUB, GPOS, kerning) every word of a document, caching them only per document, so each order PDF shaped
 * its template words ("Bestellung", "Geschäftspartnernummer:", the table header, …) anew. A layout depends only on
 * the font and the word; pdfkit reads the result without changing it (word spacing copies the last position) and
 * each document still encodes the glyphs into its own subset, so the output is the same byte for byte
 * (documents.test.ts compares a document rendered after another one with the same one rendered with empty caches).
 */
const layouts = {
  regular: new LRUCache<string, object>({ max: layoutCacheWords }),
  bold: new LRUCache<string, object>({ max: layoutCacheWords }),
};

/**
 * The glyphs of each font as its subsets copy them, shared by every document of this process (a glyph depends only
 * on the font; DejaVu has ~6,000). fontkit's TTFSubset decodes every glyph's outline when it embeds the subset, only
 * to learn whether the glyph is composite — half of an order PDF's CPU time once fonts and layouts were shared
 * (micro-benchmark profile, docs/performance.md). This is fontkit's TTFSubset._addGlyph with that decoding done
 * once per glyph: the same bytes, composite glyphs' components renumbered for each subset as fontkit does.
 */
const subsetGlyphs = new WeakMap<FontkitFont, Map<number, SubsetGlyph>>();

function subsetGlyph(font: FontkitFont, gid: number): SubsetGlyph {
  let glyphs = subsetGlyphs.get(font);
  if (!glyphs) subsetGlyphs.set(font, (glyphs = new Map()));
  let cached = glyphs.get(gid);
  if (!cached) {
    const glyph = font.getGlyph(gid);
    const glyf = glyph._decode();
    const stream = font._getTableStream('glyf');
    stream.pos += font.loca.offsets[gid];
    const bytes = stream.readBuffer(font.loca.offsets[gid + 1] - font.loca.offsets[gid]);
    const components =
      glyf && glyf.numberOfContours < 0
        ? (glyf.components ?? []).map((c) => ({ glyphID: c.glyphID, pos: c.pos }))
        : null;
    cached = { bytes, components, advance: glyph.advanceWidth, bearing: glyph._getMetrics().leftBearing };
    glyphs.set(gid, cached);
  }
  return cached;
}

function shareGlyphs(font: PdfKitFont) {
  const subset = font.subset;
  // fontkit re-encodes the outlines of variable fonts and has a CFF subset of its own: those keep fontkit's code
  if (font.font._variationProcessor || !('glyphEncoder' in subset)) return;
  subset._addGlyph = function addGlyph(this: TTFSubset, gid: number) {
    const glyph = subsetGlyph(font.font, gid);
    let bytes = glyph.bytes;
    if (glyph.components) {
      bytes = new Uint8Array(bytes);
      const view = new DataView(bytes.buffer);
      for (const component of glyph.components) view.setUint16(component.pos, this.includeGlyph(component.glyphID));
    }
    this.glyf!.push(bytes);
    this.loca!.offsets.push(this.offset!);
    this.hmtx!.metrics.push({ advance: glyph.advance, bearing: glyph.bearing });
    this.offset! += bytes.length;
    return this.glyf!.length - 1;
  };
}

function shareLayouts(font: PdfKitFont, cache: LRUCache<string, object>) {
  shareGlyphs(font);
  font.layoutCached = (text) => {
    let run = cache.get(text);
    if (run === undefined) {
      run = font.layoutRun(text);
      cache.set(text, run);
    }
    return run;
  };
}

/** Drops the fonts and layouts kept by this process (tests: render as the first document of a process). */
export function clearPdfCaches() {
  parsedFonts = null;
  layouts.regular.clear();
  layouts.bold.clear();
}

function useFonts(doc: PdfKitDocument) {
  fontData ??= { regular: fs.readFileSync(pdfFonts.regular), bold: fs.readFileSync(pdfFonts.bold) };
  doc.registerFont('regular', fontData.regular);
  doc.registerFont('bold', fontData.bold);
  const state = doc as unknown as PdfKitFontState;
  if (!parsedFonts) {
    // regular first: F1 and F2 as in every later document, so the first document of a process is the same file
    doc.font('regular');
    const regular = state._fontFamilies.regular;
    doc.font('bold');
    const bold = state._fontFamilies.bold;
    doc.font('regular');
    if (regular && bold) {
      parsedFonts = { regular, bold, EmbeddedFont: regular.constructor as EmbeddedFontClass };
      shareLayouts(regular, layouts.regular);
      shareLayouts(bold, layouts.bold);
    }
    return;
  }
  for (const name of ['regular', 'bold'] as FontName[]) {
    const font = new parsedFonts.EmbeddedFont(doc, parsedFonts[name].font, `F${++state._fontCount}`);
    shareLayouts(font, layouts[name]);
    state._fontFamilies[name] = font;
    state._fontFamilies[font.name] = font;
  }
  doc.font('regular');
}

export interface RenderOptions {
  /** false: nothing kept from earlier documents (tests compare the file with the one rendered with reuse). */
  reuse?: boolean;
}

/**
 * Runs a pdfkit drawing and returns the finished file. pdfkit writes synchronously into its readable
 * buffer, so reading it after end() yields the whole document without awaiting the stream.
 */
export function renderPdf(
  draw: (doc: PdfKitDocument) => void,
  info: { title?: string } = {},
  options: RenderOptions = {},
): Buffer {
  // font: null — without it pdfkit opens Helvetica for every document (parsing its AFM metrics file: 4 % of the API's
  // CPU under bench:load with the transmission worker inline) and embeds it although no text uses it.
  const doc = new (pdfkit())({
    size: 'A4',
    margin: 40,
    bufferPages: false,
    info: { Title: info.title ?? '' },
    font: null as unknown as string,
  });
  if (options.reuse === false) {
    // pdfkit alone: the fonts parsed for this document, its own layout cache, fontkit's subset
    fontData ??= { regular: fs.readFileSync(pdfFonts.regular), bold: fs.readFileSync(pdfFonts.bold) };
    doc.registerFont('regular', fontData.regular);
    doc.registerFont('bold', fontData.bold);
    doc.font('regular').font('bold').font('regular');
  } else {
    useFonts(doc);
  }
  draw(doc);
  doc.end();
  const chunks: Buffer[] = [];
  for (let chunk = doc.read(); chunk !== null; chunk = doc.read()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export interface PdfContent {
  title: string;
  lines: string[];
  /** A dimensioned rectangle (mm) for 2D drawings. */
  drawing?: { width: number; height: number };
}

/** A simple one-topic document (data sheets, onboarding templates, test files); long texts flow onto more pages. */
export function pdfDocument(content: PdfContent): Buffer {
  return renderPdf(
    (doc) => {
      doc.font('bold').fontSize(16).text(content.title);
      doc.moveDown(0.5).font('regular').fontSize(10);
      for (const line of content.lines) doc.text(line);
      if (content.drawing) {
        const { width, height } = content.drawing;
        const scale = Math.min(400 / Math.max(width, 1), 300 / Math.max(height, 1));
        const w = Math.max(20, width * scale);
        const h = Math.max(20, height * scale);
        if (doc.y + h + 60 > doc.page.height - doc.page.margins.bottom) doc.addPage();
        const x = 100;
        const y = doc.y + 20;
        doc.lineWidth(1).rect(x, y, w, h).stroke();
        doc
          .moveTo(x, y + h + 12)
          .lineTo(x + w, y + h + 12)
          .stroke();
        doc
          .moveTo(x - 12, y)
          .lineTo(x - 12, y + h)
          .stroke();
        doc.fontSize(9).text(`${width} mm`, x + w / 2 - 15, y + h + 16, { lineBreak: false });
        doc.text(`${height} mm`, x - 60, y + h / 2, { lineBreak: false });
      }
    },
    { title: content.title },
  );
}
