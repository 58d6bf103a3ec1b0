/**
 * Writes a small, valid one-page PDF with lines of text (Helvetica, WinAnsi so German umlauts work).
 * Used for generated documents such as onboarding templates and data sheets.
 */
export function simplePdf(title: string, lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const text = [
    'BT', '/F1 18 Tf', '50 790 Td', `(${escape(title)}) Tj`, '/F1 11 Tf', '0 -30 Td',
    ...lines.flatMap((line) => [`(${escape(line)}) Tj`, '0 -16 Td']), 'ET',
  ].join('\n');
  const content = Buffer.from(text, 'latin1');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  let length = chunks[0].length;
  const push = (b: Buffer) => { chunks.push(b); length += b.length; };
  objects.forEach((body, i) => { offsets.push(length); push(Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1')); });
  offsets.push(length);
  push(Buffer.concat([Buffer.from(`5 0 obj\n<< /Length ${content.length} >>\nstream\n`, 'latin1'), content, Buffer.from('\nendstream\nendobj\n', 'latin1')]));
  const xref = length;
  push(Buffer.from(`xref\n0 ${offsets.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}trailer\n<< /Size ${offsets.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`, 'latin1'));
  return Buffer.concat(chunks);
}
