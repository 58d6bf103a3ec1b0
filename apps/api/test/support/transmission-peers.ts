/**
 * Real peers on loopback for the transmission tests and the benchmark: an SMTP server (smtp-server),
 * an SFTP server (the ssh2 package's Server with an in-memory file system), an FTP server (ftp-srv on
 * a temporary directory), an HTTP receiver and an AS2 partner on OpenSSL's `cms` command (decrypts, verifies
 * our signature, returns a signed MDN). Each records what arrived so tests can check the bytes.
 */
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import ssh2 from 'ssh2';
import { FtpSrv } from 'ftp-srv';
import bunyan from 'bunyan';
import { freePort } from './free-port.ts';

const { Server: SshServer, utils } = ssh2;
const { OPEN_MODE, STATUS_CODE } = utils.sftp;

export interface SmtpPeer {
  port: number;
  url: string;
  messages: { from: string; to: string[]; raw: Buffer }[];
  /** SMTP connections opened to this peer so far. */
  connections: () => number;
  close: () => Promise<void>;
}

/** `socketTimeoutMs`: the server closes a connection idle that long (as mail servers do; smtp-server's default 60 s). */
export async function startSmtpPeer(options: { socketTimeoutMs?: number } = {}): Promise<SmtpPeer> {
  const messages: SmtpPeer['messages'] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 50 * 1024 * 1024,
    ...(options.socketTimeoutMs ? { socketTimeout: options.socketTimeoutMs } : {}),
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    messages,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface HttpPeer {
  url: string;
  /** Every request as it arrived (a retry of the same document appears twice here). */
  requests: { headers: http.IncomingHttpHeaders; body: Buffer }[];
  /** Accepted documents by Idempotency-Key: a repeat with a known key is answered 200 and not stored again. */
  stored: Map<string, { headers: http.IncomingHttpHeaders; body: Buffer }>;
  /** 'down' answers 503, 'up' 200 after `delayMs`. */
  mode: 'up' | 'down';
  delayMs: number;
  close: () => Promise<void>;
}

export async function startHttpPeer(): Promise<HttpPeer> {
  const peer = { requests: [], stored: new Map(), mode: 'up', delayMs: 0 } as unknown as HttpPeer;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      peer.requests.push({ headers: req.headers, body });
      setTimeout(() => {
        if (peer.mode === 'down') {
          res.writeHead(503).end('Wartung');
          return;
        }
        const key = String(req.headers['idempotency-key'] ?? crypto.randomUUID());
        if (!peer.stored.has(key)) peer.stored.set(key, { headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ orderId: `EXT-${key}` }));
      }, peer.delayMs);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/orders`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return peer;
}

export interface SftpPeer {
  port: number;
  user: string;
  password: string;
  /** Files by absolute path. */
  files: Map<string, Buffer>;
  /** Every path that was opened for writing and every rename, in order. */
  events: string[];
  close: () => Promise<void>;
}

export async function startSftpPeer(folders: string[] = ['/inbox']): Promise<SftpPeer> {
  const { privateKey } = crypto.generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' },
  });
  const peer = { user: 'lieferant', password: 'geheim-sftp', files: new Map(), events: [] } as unknown as SftpPeer;
  const dirs = new Set(['/', ...folders]);
  const server = new SshServer({ hostKeys: [privateKey] }, (client) => {
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === peer.user && ctx.password === peer.password) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const handles = new Map<string, string>();
          let next = 0;
          const attrsOf = (p: string) => {
            const now = Math.floor(Date.now() / 1000);
            if (dirs.has(p)) return { mode: 0o40755, uid: 0, gid: 0, size: 0, atime: now, mtime: now };
            const file = peer.files.get(p);
            return file ? { mode: 0o100644, uid: 0, gid: 0, size: file.length, atime: now, mtime: now } : null;
          };
          sftp.on('OPEN', (reqid, filename, flags) => {
            const name = path.posix.normalize(filename);
            if (!dirs.has(path.posix.dirname(name))) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
            if (flags & OPEN_MODE.WRITE) {
              if (flags & OPEN_MODE.TRUNC || !peer.files.has(name)) peer.files.set(name, Buffer.alloc(0));
              peer.events.push(`write ${name}`);
            } else if (!peer.files.has(name)) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
            const handle = Buffer.from(String(next++));
            handles.set(handle.toString(), name);
            sftp.handle(reqid, handle);
          });
          sftp.on('WRITE', (reqid, handle, offset, data) => {
            const name = handles.get(handle.toString());
            if (!name) return sftp.status(reqid, STATUS_CODE.FAILURE);
            const current = peer.files.get(name) ?? Buffer.alloc(0);
            const size = Math.max(current.length, offset + data.length);
            const merged = Buffer.alloc(size);
            current.copy(merged);
            data.copy(merged, offset);
            peer.files.set(name, merged);
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('CLOSE', (reqid, handle) => {
            handles.delete(handle.toString());
            sftp.status(reqid, STATUS_CODE.OK);
          });
          const stat = (reqid: number, p: string) => {
            const attrs = attrsOf(path.posix.normalize(p));
            if (!attrs) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
            sftp.attrs(reqid, attrs);
          };
          sftp.on('STAT', stat);
          sftp.on('LSTAT', stat);
          sftp.on('FSTAT', (reqid, handle) => stat(reqid, handles.get(handle.toString()) ?? ''));
          sftp.on('REALPATH', (reqid, p) => {
            const name = path.posix.resolve('/', p);
            sftp.name(reqid, [{ filename: name, longname: name, attrs: attrsOf(name) ?? ({} as never) }]);
          });
          // Reading side (the ORDRSP pick-up lists, downloads and moves files): directories, READ, MKDIR.
          const listed = new Set<string>();
          const longname = (name: string, attrs: { mode: number; size: number }) =>
            `${attrs.mode & 0o40000 ? 'd' : '-'}rw-r--r-- 1 0 0 ${attrs.size} Jan 1 00:00 ${name}`;
          sftp.on('OPENDIR', (reqid, p) => {
            const dir = path.posix.normalize(p);
            if (!dirs.has(dir)) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
            const handle = Buffer.from(String(next++));
            handles.set(handle.toString(), `dir:${dir}`);
            sftp.handle(reqid, handle);
          });
          sftp.on('READDIR', (reqid, handle) => {
            const key = handle.toString();
            const dir = handles.get(key)?.replace(/^dir:/, '');
            if (!dir || listed.has(key)) return sftp.status(reqid, STATUS_CODE.EOF);
            listed.add(key);
            const children = [...dirs, ...peer.files.keys()].filter((p) => p !== dir && path.posix.dirname(p) === dir);
            sftp.name(
              reqid,
              children.map((p) => {
                const attrs = attrsOf(p)!;
                return { filename: path.posix.basename(p), longname: longname(path.posix.basename(p), attrs), attrs };
              }),
            );
          });
          sftp.on('READ', (reqid, handle, offset, length) => {
            const file = peer.files.get(handles.get(handle.toString()) ?? '');
            if (!file) return sftp.status(reqid, STATUS_CODE.FAILURE);
            if (offset >= file.length) return sftp.status(reqid, STATUS_CODE.EOF);
            sftp.data(reqid, file.subarray(offset, offset + length));
          });
          sftp.on('MKDIR', (reqid, p) => {
            dirs.add(path.posix.normalize(p));
            sftp.status(reqid, STATUS_CODE.OK);
          });
          sftp.on('RENAME', (reqid, from, to) => {
            const a = path.posix.normalize(from);
            const b = path.posix.normalize(to);
            const file = peer.files.get(a);
            if (!file) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE);
            if (peer.files.has(b)) return sftp.status(reqid, STATUS_CODE.FAILURE);
            peer.files.delete(a);
            peer.files.set(b, file);
            peer.events.push(`rename ${a} -> ${b}`);
            sftp.status(reqid, STATUS_CODE.OK);
          });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.port = (server.address() as AddressInfo).port;
  peer.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return peer;
}

export interface FtpPeer {
  port: number;
  user: string;
  password: string;
  root: string;
  close: () => Promise<void>;
}

export async function startFtpPeer(folders: string[] = ['inbox']): Promise<FtpPeer> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-ftp-'));
  for (const f of folders) fs.mkdirSync(path.join(root, f), { recursive: true });
  const port = await freePort();
  const pasv = await freePort();
  const server = new FtpSrv({
    url: `ftp://127.0.0.1:${port}`,
    pasv_url: '127.0.0.1',
    pasv_min: pasv,
    pasv_max: pasv + 50,
    anonymous: false,
    greeting: 'SHK Test-FTP',
    log: bunyan.createLogger({ name: 'ftp-peer', level: 'fatal' }),
  });
  const peer: FtpPeer = {
    port,
    user: 'lieferant',
    password: 'geheim-ftp',
    root,
    close: async () => {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
  server.on('login', ({ username, password }, resolve, reject) => {
    if (username === peer.user && password === peer.password) resolve({ root });
    else reject(new Error('Anmeldung fehlgeschlagen'));
  });
  await server.listen();
  return peer;
}

export interface As2Peer {
  url: string;
  as2Id: string;
  /** The partner's certificate (PEM): the portal's AS2 workflow stores it. */
  certificatePem: string;
  /** Verified messages by Message-ID (a repeat is acknowledged but not stored again). */
  received: Map<
    string,
    {
      headers: http.IncomingHttpHeaders;
      entity: Buffer;
      content: Buffer;
      signer: string;
      /** The content encryption OpenSSL found ('aes-256-cbc' …), null for a message that was only signed. */
      cipher: string | null;
    }
  >;
  rejected: string[];
  /** Asynchronous MDNs posted back: the HTTP status our MDN URL answered. */
  asyncMdnStatuses: number[];
  /** Who signs the MDN: the partner (its certificate) or a foreign key the portal does not know. */
  mdnSigner: 'partner' | 'foreign';
  /** 'text': the MDN is written with LF line ends and signed by OpenSSL in text mode (it signs and sends the CRLF form, with LF around the boundaries). */
  mdnSigning: 'binary' | 'text';
  /** How the partner writes the MIC algorithm in Received-Content-MIC (other stacks write 'SHA-256'). */
  micAlgorithm: string;
  /** Our certificate (PEM): the partner verifies our signature against it, and only it. */
  trust(portalCertificatePem: string): void;
  /** Signs a MDN for a Message-ID as this partner would (the content type and body to post). */
  signedMdn(
    messageId: string,
    mic: string,
    signer?: 'partner' | 'foreign',
  ): Promise<{ contentType: string; body: Buffer }>;
  close: () => Promise<void>;
}

const execFileAsync = promisify(execFile);
const openssl = async (args: string[]) =>
  (await execFileAsync('openssl', args, { encoding: 'buffer', maxBuffer: 64 << 20 })).stdout;

/** A self-signed RSA certificate made by OpenSSL (`days` may be small to test expiry warnings). */
export async function opensslCertificate(dir: string, name: string, days = 365) {
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.pem`);
  await openssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-days',
    String(days),
    '-subj',
    `/CN=${name}/O=Testpartner GmbH`,
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  return { keyFile, certFile, certificatePem: fs.readFileSync(certFile, 'utf8') };
}

/** Splits MIME headers from the body (CRLF or LF). */
function splitMime(raw: Buffer): { headers: string; body: Buffer } {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  const [end, skip] = crlf >= 0 && (lf < 0 || crlf < lf) ? [crlf, 4] : [lf, 2];
  return { headers: raw.subarray(0, end).toString('latin1'), body: raw.subarray(end + skip) };
}

/** Splits a multipart/signed body into the signed entity (exact bytes) and the DER signature. */
function splitSigned(body: Buffer, boundary: string) {
  const delimiter = Buffer.from(`--${boundary}\r\n`);
  const separator = Buffer.from(`\r\n--${boundary}\r\n`);
  const start = body.indexOf(delimiter) + delimiter.length;
  const end = body.indexOf(separator, start);
  const entity = body.subarray(start, end);
  const rest = body.subarray(end + separator.length).toString('latin1');
  const signature = Buffer.from(rest.split('\r\n\r\n')[1].split(`\r\n--${boundary}--`)[0].replace(/\s/g, ''), 'base64');
  return { entity, signature };
}

/**
 * An AS2 partner built on OpenSSL's `cms` command, as a supplier's AS2 gateway would run it: it decrypts
 * an enveloped message with its key (`cms -decrypt`), verifies our signature against our certificate
 * only (`cms -verify -nointern -certfile ours -CAfile ours`), computes the MIC and returns a signed MDN
 * (`cms -sign`, SHA-256, written 'SHA-256' like other AS2 stacks do), synchronously or, when the message
 * asks for it (Receipt-Delivery-Option), posted to the given URL afterwards.
 */
export async function startAs2Peer(as2Id = 'NORDBAD-AS2', options: { inspect?: boolean } = {}): Promise<As2Peer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-as2-'));
  const [partner, foreign] = await Promise.all([opensslCertificate(dir, as2Id), opensslCertificate(dir, 'FREMD-AS2')]);
  const trustedFile = path.join(dir, 'portal.pem');
  let trustedSubject = '';
  const peer = {
    as2Id,
    certificatePem: partner.certificatePem,
    received: new Map(),
    rejected: [],
    asyncMdnStatuses: [],
    mdnSigner: 'partner',
    mdnSigning: 'binary',
    micAlgorithm: 'SHA-256',
    trust: (pem: string) => {
      fs.writeFileSync(trustedFile, pem);
      trustedSubject = new crypto.X509Certificate(pem).subject.replace(/\n/g, ', ');
    },
  } as unknown as As2Peer;

  peer.signedMdn = async (messageId, mic, signer = peer.mdnSigner) => {
    const key = signer === 'partner' ? partner : foreign;
    const report = path.join(dir, `${crypto.randomUUID()}.mdn`);
    const mdnBoundary = `mdn-${crypto.randomBytes(6).toString('hex')}`;
    fs.writeFileSync(
      report,
      [
        `Content-Type: multipart/report; report-type=disposition-notification; boundary="${mdnBoundary}"`,
        '',
        `--${mdnBoundary}`,
        'Content-Type: text/plain',
        '',
        'Die Nachricht wurde empfangen.',
        `--${mdnBoundary}`,
        'Content-Type: message/disposition-notification',
        '',
        'Reporting-UA: OpenSSL-AS2-Testpartner',
        `Original-Recipient: rfc822; ${as2Id}`,
        `Final-Recipient: rfc822; ${as2Id}`,
        `Original-Message-ID: ${messageId}`,
        `Received-Content-MIC: ${mic}, ${peer.micAlgorithm}`,
        'Disposition: automatic-action/MDN-sent-automatically; processed',
        '',
        `--${mdnBoundary}--`,
        '',
      ].join(peer.mdnSigning === 'text' ? '\n' : '\r\n'),
    );
    const smime = await openssl([
      'cms',
      '-sign',
      ...(peer.mdnSigning === 'text' ? [] : ['-binary', '-crlfeol']),
      '-md',
      'sha256',
      '-signer',
      key.certFile,
      '-inkey',
      key.keyFile,
      '-in',
      report,
    ]);
    fs.rmSync(report, { force: true });
    const { headers, body } = splitMime(smime);
    const contentType = /^Content-Type:\s*(.+(?:\r?\n[ \t].+)*)/im.exec(headers)![1].replace(/\r?\n[ \t]+/g, ' ');
    return { contentType, body };
  };

  const receive = async (req: http.IncomingMessage, raw: Buffer) => {
    if (req.headers['as2-to'] !== as2Id) throw new Error(`AS2-To ${req.headers['as2-to']}`);
    const base = path.join(dir, crypto.randomUUID());
    let contentType = String(req.headers['content-type']);
    let body = raw;
    let cipher: string | null = null;
    try {
      if (/application\/(x-)?pkcs7-mime/i.test(contentType)) {
        fs.writeFileSync(`${base}.p7m`, raw);
        if (options.inspect)
          cipher =
            /:(aes-\d+-cbc|des-ede3-cbc)/i.exec(
              (await openssl(['asn1parse', '-inform', 'DER', '-in', `${base}.p7m`])).toString(),
            )?.[1] ?? 'unknown';
        await openssl([
          'cms',
          '-decrypt',
          '-binary',
          '-inform',
          'DER',
          '-in',
          `${base}.p7m`,
          '-inkey',
          partner.keyFile,
          '-recip',
          partner.certFile,
          '-out',
          `${base}.dec`,
        ]);
        const inner = splitMime(fs.readFileSync(`${base}.dec`));
        contentType = /^Content-Type:\s*(.+)$/im.exec(inner.headers)![1].trim();
        body = inner.body;
        cipher ??= 'encrypted';
      }
      const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
      if (!/multipart\/signed/i.test(contentType) || !boundary) throw new Error(`unsigned: ${contentType}`);
      const { entity, signature } = splitSigned(body, boundary);
      fs.writeFileSync(`${base}.bin`, entity);
      fs.writeFileSync(`${base}.p7s`, signature);
      // Only our certificate (nothing the message carries) may vouch for the signature.
      await openssl([
        'cms',
        '-verify',
        '-binary',
        '-inform',
        'DER',
        '-in',
        `${base}.p7s`,
        '-content',
        `${base}.bin`,
        '-nointern',
        '-certfile',
        trustedFile,
        '-CAfile',
        trustedFile,
        '-purpose',
        'any',
        '-out',
        '/dev/null',
      ]);
      // openssl verified against our certificate alone, so its subject names the signer.
      const signer = trustedSubject;
      return { entity, signer, cipher };
    } finally {
      for (const ext of ['p7m', 'dec', 'bin', 'p7s']) fs.rmSync(`${base}.${ext}`, { force: true });
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const messageId = String(req.headers['message-id'] ?? '');
        let verified;
        try {
          verified = await receive(req, Buffer.concat(chunks));
        } catch (error) {
          const why = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message);
          peer.rejected.push(why);
          res.writeHead(400).end(why);
          return;
        }
        const { entity, signer, cipher } = verified;
        const headerEnd = entity.indexOf('\r\n\r\n');
        if (!peer.received.has(messageId))
          peer.received.set(messageId, {
            headers: req.headers,
            entity,
            content: entity.subarray(headerEnd + 4),
            signer,
            cipher,
          });
        const mic = crypto.createHash('sha256').update(entity).digest('base64');
        const mdn = await peer.signedMdn(messageId, mic);
        const asyncUrl = req.headers['receipt-delivery-option'];
        if (typeof asyncUrl !== 'string') {
          res.writeHead(200, {
            'content-type': mdn.contentType,
            'as2-from': as2Id,
            'as2-to': String(req.headers['as2-from']),
          });
          res.end(mdn.body);
          return;
        }
        res.writeHead(200).end();
        const answer = await fetch(asyncUrl, {
          method: 'POST',
          headers: { 'content-type': mdn.contentType, 'as2-from': as2Id, 'as2-to': String(req.headers['as2-from']) },
          body: new Uint8Array(mdn.body),
        }).catch(() => null);
        peer.asyncMdnStatuses.push(answer?.status ?? 0);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/as2`;
  peer.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => {
        fs.rmSync(dir, { recursive: true, force: true });
        resolve();
      });
    });
  return peer;
}
