import fs from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';

const require = createRequire(import.meta.url);

/** DejaVu Sans ships in the npm package dejavu-fonts-ttf: umlauts, ß and € render without a system font. */
export const pdfFonts = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};

export type PdfKitDocument = InstanceType<typeof PDFDocument>;

/** Read once per process: every order document embeds (a subset of) the same fonts. */
let fontData: { regular: Buffer; bold: Buffer } | null = null;

/**
 * Runs a pdfkit drawing and returns the finished file. pdfkit writes synchronously into its readable
 * buffer, so reading it after end() yields the whole document without awaiting the stream.
 */
export function renderPdf(draw: (doc: PdfKitDocument) => void, info: { title?: string } = {}): Buffer {
  const doc = new PDFDocument({ size: 'A4', margin: 40, bufferPages: false, info: { Title: info.title ?? '' } });
  fontData ??= { regular: fs.readFileSync(pdfFonts.regular), bold: fs.readFileSync(pdfFonts.bold) };
  doc.registerFont('regular', fontData.regular);
  doc.registerFont('bold', fontData.bold);
  doc.font('regular');
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
