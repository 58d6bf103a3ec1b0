import fs from 'node:fs';
import { createRequire } from 'node:module';
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
  font: unknown;
  name: string;
}
interface PdfKitFontState {
  _fontFamilies: Record<string, PdfKitFont>;
  _fontCount: number;
}
type EmbeddedFontClass = new (doc: PdfKitDocument, font: unknown, id: string) => PdfKitFont;

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

function useFonts(doc: PdfKitDocument) {
  fontData ??= { regular: fs.readFileSync(pdfFonts.regular), bold: fs.readFileSync(pdfFonts.bold) };
  doc.registerFont('regular', fontData.regular);
  doc.registerFont('bold', fontData.bold);
  const state = doc as unknown as PdfKitFontState;
  if (!parsedFonts) {
    doc.font('bold');
    const bold = state._fontFamilies.bold;
    doc.font('regular');
    const regular = state._fontFamilies.regular;
    if (regular && bold) {
      parsedFonts = { regular, bold, EmbeddedFont: regular.constructor as EmbeddedFontClass };
    }
    return;
  }
  for (const name of ['regular', 'bold'] as FontName[]) {
    const font = new parsedFonts.EmbeddedFont(doc, parsedFonts[name].font, `F${++state._fontCount}`);
    state._fontFamilies[name] = font;
    state._fontFamilies[font.name] = font;
  }
  doc.font('regular');
}

/**
 * Runs a pdfkit drawing and returns the finished file. pdfkit writes synchronously into its readable
 * buffer, so reading it after end() yields the whole document without awaiting the stream.
 */
export function renderPdf(draw: (doc: PdfKitDocument) => void, info: { title?: string } = {}): Buffer {
  // font: null — without it pdfkit opens Helvetica for every document (parsing its AFM metrics file: 4 % of the API's
  // CPU under bench:load with the transmission worker inline) and embeds it although no text uses it.
  const doc = new (pdfkit())({
    size: 'A4',
    margin: 40,
    bufferPages: false,
    info: { Title: info.title ?? '' },
    font: null as unknown as string,
  });
  useFonts(doc);
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
