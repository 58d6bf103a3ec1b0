/**
 * Reads a single-part text mail as the SMTP peer received it: the decoded subject (RFC 2047 encoded words) and the
 * decoded body (quoted-printable, base64 or plain), enough to assert on German texts.
 */
export function readMail(raw: Buffer): { subject: string; text: string; to: string } {
  const source = raw.toString('latin1');
  const split = source.indexOf('\r\n\r\n') >= 0 ? source.indexOf('\r\n\r\n') : source.indexOf('\n\n');
  const head = source.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const body = source.slice(split).replace(/^\r?\n\r?\n/, '');
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').toLowerCase();
  const bytes =
    encoding === 'base64'
      ? Buffer.from(body.replace(/\s+/g, ''), 'base64')
      : encoding === 'quoted-printable'
        ? quotedPrintable(body)
        : Buffer.from(body, 'latin1');
  return {
    subject: encodedWords(header('Subject')),
    text: bytes.toString('utf8').replace(/\r\n/g, '\n'),
    to: header('To'),
  };
}

function quotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const out: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(joined.charCodeAt(i));
  }
  return Buffer.from(out);
}

function encodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, kind: string, data: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(data, 'base64').toString('utf8')
        : quotedPrintable(data.replace(/_/g, ' ')).toString('utf8'),
    );
}
