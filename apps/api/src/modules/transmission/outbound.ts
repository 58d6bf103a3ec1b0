import dns from 'node:dns';
import net from 'node:net';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit, type Response } from 'undici';
import { outboundMessages } from '@shk/contracts';
import { PermanentTransmissionError } from './transmission.types.ts';
import { internalKind, plainAddress } from '../../lib/outbound.ts';

/**
 * Where 'Verbindung testen' and deliveries may connect. Supplier endpoints are typed in by staff, so without a
 * check the portal reaches its own loopback, the office network and the database, and the answers ('refused',
 * 'timeout', 'ok') scan ports for whoever edits a workflow. Internal addresses and the database's port are
 * refused unless the operator's allowlist (TRANSMISSION_ALLOWED_HOSTS) names them. The name is resolved once
 * and the connection goes to the checked address, so a DNS answer that changes in between cannot slip through.
 */

/** A target refused by the policy: no retry can fix it. */
export class TargetRefusedError extends PermanentTransmissionError {}

/** A failure we describe ourselves (German text, safe to show). */
export class OutboundError extends Error {}

interface AllowEntry {
  /** Host name (lower case) or null for an address/range entry. */
  name: string | null;
  /** Address or range entry. */
  range: net.BlockList | null;
  /** null: any port except the database's. */
  port: number | null;
}

function parseEntry(raw: string): AllowEntry | null {
  let host = raw.trim();
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (bracketed) {
    host = bracketed[1];
    port = bracketed[2] ? Number(bracketed[2]) : null;
  } else if (!net.isIPv6(host.split('/')[0])) {
    const withPort = /^(.*):(\d+)$/.exec(host);
    if (withPort) {
      host = withPort[1];
      port = Number(withPort[2]);
    }
  }
  if (!host) return null;
  const [address, prefix] = host.split('/');
  if (net.isIP(address)) {
    const a = plainAddress(address);
    const range = new net.BlockList();
    const bits = prefix === undefined ? (a.type === 'ipv4' ? 32 : 128) : Number(prefix);
    range.addSubnet(a.address, bits, a.type);
    return { name: null, range, port };
  }
  return { name: host.toLowerCase(), range: null, port };
}

export interface DatabaseEndpoint {
  host: string;
  port: number;
}

/** The database the pool connects to (its port is never a transmission target). */
export function databaseEndpointOf(pool: {
  options?: { connectionString?: string; host?: string; port?: number };
}): DatabaseEndpoint | null {
  const options = pool.options ?? {};
  if (options.connectionString) {
    try {
      const url = new URL(options.connectionString);
      return { host: url.hostname.replace(/^\[|\]$/g, ''), port: Number(url.port || 5432) };
    } catch {
      return null;
    }
  }
  return options.host ? { host: options.host, port: options.port ?? 5432 } : null;
}

const lookupAll = (host: string) =>
  new Promise<string[]>((resolve, reject) =>
    dns.lookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

export class OutboundPolicy {
  private readonly entries: AllowEntry[];
  private databaseAddresses: Promise<string[]> | null = null;
  private readonly agents = new Map<number, Agent>();

  constructor(
    allowed: string[],
    private readonly database: DatabaseEndpoint | null,
  ) {
    this.entries = allowed.map(parseEntry).filter((e): e is AllowEntry => e !== null);
  }

  private dbAddresses(): Promise<string[]> {
    if (!this.database) return Promise.resolve([]);
    const host = this.database.host;
    return (this.databaseAddresses ??= net.isIP(host) ? Promise.resolve([host]) : lookupAll(host).catch(() => []));
  }

  private allowedBy(host: string, address: string, port: number, needsPort: boolean): boolean {
    const a = plainAddress(address);
    return this.entries.some(
      (e) =>
        (e.port === null ? !needsPort : e.port === port) &&
        (e.name !== null ? e.name === host.toLowerCase() : e.range!.check(a.address, a.type)),
    );
  }

  /** Throws TargetRefusedError unless `address` (what `host` resolved to) may be reached on `port`. */
  private async check(host: string, address: string, port: number) {
    const kind = internalKind(address);
    const isDatabase =
      this.database !== null &&
      port === this.database.port &&
      (kind !== null || (await this.dbAddresses()).includes(plainAddress(address).address));
    if (isDatabase && !this.allowedBy(host, address, port, true))
      throw new TargetRefusedError(outboundMessages.databasePort(host, port));
    if (kind && !this.allowedBy(host, address, port, false))
      throw new TargetRefusedError(outboundMessages.internalTarget(host, address, kind));
  }

  /** Resolves `host` once and returns the address to connect to; refuses internal targets and the database. */
  async resolve(host: string | null | undefined, port: number): Promise<string> {
    const name = (host ?? '').trim().replace(/^\[|\]$/g, '');
    if (!name) throw new OutboundError(outboundMessages.connectionFailed(outboundMessages.noHost));
    const addresses = net.isIP(name) ? [name] : await lookupAll(name);
    if (!addresses.length) throw new OutboundError(outboundMessages.connectionFailed(outboundMessages.hostNotFound));
    // The first address the policy allows (a name may resolve to ::1 and 127.0.0.1 with only one of them allowed);
    // none allowed: the refusal of the first.
    let refusal: unknown = null;
    for (const address of addresses) {
      try {
        await this.check(name, address, port);
        return address;
      } catch (error) {
        refusal ??= error;
      }
    }
    throw refusal;
  }

  /** An HTTP agent whose every connection goes through the same check (DNS is asked at connect time). */
  private agentFor(port: number): Agent {
    let agent = this.agents.get(port);
    if (!agent) {
      agent = new Agent({
        connect: {
          lookup: (hostname, _options, callback) => {
            this.resolve(hostname, port).then(
              (address) => callback(null, address, net.isIPv6(address) ? 6 : 4),
              (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
            );
          },
        },
      });
      this.agents.set(port, agent);
    }
    return agent;
  }

  /**
   * fetch through the policy: the URL's host and port are checked before and at connect time, redirects are
   * never followed (a 3xx is an error naming the target), the timeout applies to the whole exchange.
   */
  async fetch(url: string, init: UndiciRequestInit, timeoutMs: number): Promise<Response> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new PermanentTransmissionError(outboundMessages.connectionFailed(outboundMessages.badUrl));
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new PermanentTransmissionError(outboundMessages.connectionFailed(outboundMessages.badUrl));
    const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
    await this.resolve(parsed.hostname, port);
    const response = await undiciFetch(url, {
      ...init,
      redirect: 'manual',
      dispatcher: this.agentFor(port),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new PermanentTransmissionError(
        outboundMessages.redirect(response.status, response.headers.get('location')),
      );
    }
    return response;
  }

  async close() {
    await Promise.allSettled([...this.agents.values()].map((a) => a.close()));
    this.agents.clear();
  }
}

const NETWORK_CODES: Record<string, string> = {
  ENOTFOUND: outboundMessages.hostNotFound,
  EAI_AGAIN: outboundMessages.hostNotFound,
  EAI_NODATA: outboundMessages.hostNotFound,
  EAI_NONAME: outboundMessages.hostNotFound,
  ECONNREFUSED: outboundMessages.refused,
  ETIMEDOUT: outboundMessages.timeout,
  ESOCKETTIMEDOUT: outboundMessages.timeout,
  UND_ERR_CONNECT_TIMEOUT: outboundMessages.timeout,
  UND_ERR_HEADERS_TIMEOUT: outboundMessages.timeout,
  UND_ERR_BODY_TIMEOUT: outboundMessages.timeout,
  ECONNRESET: outboundMessages.reset,
  EPIPE: outboundMessages.reset,
  UND_ERR_SOCKET: outboundMessages.reset,
  EHOSTUNREACH: outboundMessages.unreachable,
  ENETUNREACH: outboundMessages.unreachable,
  EHOSTDOWN: outboundMessages.unreachable,
};

/** SFTP status codes (draft-ietf-secsh-filexfer) as ssh2 reports them. */
const SFTP_CODES: Record<number, string> = {
  2: outboundMessages.noSuchFile,
  3: outboundMessages.permissionDenied,
  4: outboundMessages.remoteFailure,
};

/** Messages of the libraries that must not reach staff as they are. */
const RAW_LIBRARY_TEXT =
  /getaddrinfo|ENOTFOUND|ECONN|EHOST|ENET|ETIMEDOUT|socket|handshake|getConnection|connect:|put:|rename:|stat:|exists:|fetch failed|Timed out|authentication methods|privateKey|ERR_|^\d{3} /i;

function codeOf(error: unknown): string | number | undefined {
  return (error as { code?: string | number } | null)?.code;
}

/** The network reason of a library error, or null when it is none we know. */
function networkReason(error: unknown, depth = 0): string | null {
  if (!error || typeof error !== 'object' || depth > 4) return null;
  const e = error as Error & { code?: string | number; level?: string; cause?: unknown; name?: string };
  const code = codeOf(e);
  if (typeof code === 'string' && NETWORK_CODES[code]) return NETWORK_CODES[code];
  if (typeof code === 'string' && /^(ERR_TLS|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED)/.test(code))
    return outboundMessages.tls;
  if (e.level === 'client-authentication' || /authentication methods failed/i.test(e.message ?? ''))
    return outboundMessages.authFailed;
  if (/Cannot parse privateKey|Unsupported key format/i.test(e.message ?? '')) return outboundMessages.badPrivateKey;
  if (e.name === 'TimeoutError' || /timed out|timeout/i.test(e.message ?? '')) return outboundMessages.timeout;
  if (e.name === 'FTPError' && typeof code === 'number') {
    if (code === 530) return outboundMessages.authFailed;
    if (code === 550) return outboundMessages.noSuchFile;
    return outboundMessages.ftpError(code);
  }
  if (typeof code === 'number' && SFTP_CODES[code]) return SFTP_CODES[code];
  const fromCause = networkReason(e.cause, depth + 1);
  if (fromCause) return fromCause;
  // ssh2-sftp-client wraps the cause into its own text ('getConnection: getaddrinfo ENOTFOUND x'): read the code.
  const embedded = /\b(E[A-Z_]{4,}|UND_ERR_[A-Z_]+)\b/.exec(e.message ?? '')?.[1];
  if (embedded && NETWORK_CODES[embedded]) return NETWORK_CODES[embedded];
  if (/No such file/i.test(e.message ?? '')) return outboundMessages.noSuchFile;
  // fetch refuses ports the Fetch standard blocks (25, 9, …) before connecting.
  if (/^bad port$/i.test(e.message ?? '')) return outboundMessages.blockedPort;
  if (/Permission denied/i.test(e.message ?? '')) return outboundMessages.permissionDenied;
  return null;
}

/**
 * The German reason of a failed connection or delivery for the attempt log and 'Verbindung testen': our own
 * messages as they are, library errors mapped to 'Verbindung fehlgeschlagen: Rechner nicht gefunden' and the
 * like, never a library's raw text.
 */
export function describeOutboundError(error: unknown): string {
  if (error instanceof PermanentTransmissionError || error instanceof OutboundError) return error.message;
  const reason = networkReason(error);
  if (reason) return outboundMessages.connectionFailed(reason);
  const message = error instanceof Error ? error.message : String(error);
  if (!message || RAW_LIBRARY_TEXT.test(message)) return outboundMessages.connectionFailed(outboundMessages.unexpected);
  return message;
}
