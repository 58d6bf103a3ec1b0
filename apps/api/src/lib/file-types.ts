/**
 * Checks that a file's content matches its extension (a renamed .exe is not a PDF).
 * Office files are containers: xlsx is a ZIP, xls an OLE2 compound file.
 */
const signatures: Record<string, (b: Buffer) => boolean> = {
  pdf: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  xlsx: (b) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04,
  xls: (b) => b.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])),
  csv: (b) => !b.includes(0) && b.length > 0,
  svg: (b) => /<svg[\s>]/i.test(b.subarray(0, 2048).toString('utf8')) && !/<script/i.test(b.toString('utf8')),
};

export const contentTypes: Record<string, string> = {
  pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xls: 'application/vnd.ms-excel', svg: 'image/svg+xml',
};

export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** True when the extension is allowed and, for known types, the bytes look like that type. */
export function isAcceptedFile(fileName: string, content: Buffer, allowedExtensions: string[]): boolean {
  const ext = extensionOf(fileName);
  if (!ext || !allowedExtensions.includes(ext)) return false;
  const check = signatures[ext];
  return check ? check(content) : true;
}

/** File names are stored as given but without path parts and control characters. */
export function cleanFileName(fileName: string): string {
  return (fileName.split(/[\\/]/).pop() ?? 'datei').replace(/[\x00-\x1f\x7f]/g, '').slice(0, 200) || 'datei';
}
