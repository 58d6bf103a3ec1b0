/** A tiny valid PDF 1.4 writer (one page, Helvetica, optional line drawing): data sheets, onboarding templates, test files. */

/** WinAnsi codes of the non-ASCII characters German product texts use. */
const winAnsi: Record<string, number> = {
  'ä': 0xe4, 'ö': 0xf6, 'ü': 0xfc, 'Ä': 0xc4, 'Ö': 0xd6, 'Ü': 0xdc, 'ß': 0xdf, '°': 0xb0, '²': 0xb2, '³': 0xb3,
  '–': 0x96, '—': 0x97, '€': 0x80, '×': 0xd7, 'é': 0xe9, 'è': 0xe8, 'à': 0xe0, '„': 0x84, '“': 0x93, '”': 0x94, '’': 0x92,
};

function pdfString(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '(' || ch === ')' || ch === '\\') out += `\\${ch}`;
    else if (ch.charCodeAt(0) >= 32 && ch.charCodeAt(0) < 127) out += ch;
    else if (winAnsi[ch] !== undefined) out += `\\${winAnsi[ch].toString(8).padStart(3, '0')}`;
    else out += '?';
  }
  return `(${out})`;
}

export interface PdfContent {
  title: string;
  lines: string[];
  /** A dimensioned rectangle (mm) for 2D drawings. */
  drawing?: { width: number; height: number };
}

export function pdfDocument(content: PdfContent): Buffer {
  const ops: string[] = ['BT', '/F2 16 Tf', '50 790 Td', `${pdfString(content.title)} Tj`, '/F1 10 Tf', '0 -28 Td'];
  for (const line of content.lines.slice(0, 60)) ops.push(`${pdfString(line)} Tj`, '0 -14 Td');
  ops.push('ET');
  if (content.drawing) {
    const { width, height } = content.drawing;
    const scale = Math.min(400 / Math.max(width, 1), 300 / Math.max(height, 1));
    const w = Math.max(20, width * scale), h = Math.max(20, height * scale);
    ops.push('1 w', `100 120 ${w.toFixed(1)} ${h.toFixed(1)} re S`,
      `100 100 m ${(100 + w).toFixed(1)} 100 l S`, `80 120 m 80 ${(120 + h).toFixed(1)} l S`,
      'BT /F1 9 Tf', `${(100 + w / 2 - 15).toFixed(1)} 88 Td ${pdfString(`${width} mm`)} Tj ET`,
      'BT /F1 9 Tf', `40 ${(120 + h / 2).toFixed(1)} Td ${pdfString(`${height} mm`)} Tj ET`);
  }
  const stream = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => { offsets.push(Buffer.byteLength(body, 'latin1')); body += `${i + 1} 0 obj\n${o}\nendobj\n`; });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
