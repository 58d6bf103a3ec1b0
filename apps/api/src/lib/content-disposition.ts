/** content-disposition header with an ASCII fallback and the UTF-8 file name (RFC 6266 / 5987). */
export function attachmentHeader(fileName: string, inline = false): string {
  const ascii = fileName
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
