/**
 * Fetches one medium a supplier catalogue names by URL, for storing (never for a redirect): http(s) only; every
 * address the host resolves to must be public (not loopback, private, link-local, multicast, reserved), nor the
 * database's, unless the operator allows it (MEDIA_FETCH_ALLOW); the request goes to the address checked (no second
 * lookup between check and connect); each redirect (at most 3) is checked again; the body is cut at the size limit;
 * its bytes must be a JPEG, PNG or PDF (file-type), whatever the server says it is; a picture a JPEG or PNG only.
 * A supplier whose server gives out media only with a token: the request carries it as a bearer token (never to
 * another origin a redirect leads to), and the medium's file name under the supplier's fallback address is tried
 * first, the catalogue's address after it.
 */
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns/promises';
import net from 'node:net';
import { fileTypeFromBuffer } from 'file-type';
import { catalogueImportFailureTexts } from '@shk/contracts';
import { internalKind, plainAddress } from '../../lib/outbound.ts';

const reasons = catalogueImportFailureTexts.mediaReasons;

/** Why a medium was not fetched (German); `retry`: worth another attempt later (the server may come back). */
export class MediaFetchError extends Error {
  constructor(
    message: string,
    readonly retry = false,
  ) {
    super(message);
  }
}

export interface MediaFetchOptions {
  maxBytes: number;
  timeoutMs: number;
  /** Addresses or CIDR ranges reachable although they are not public (tests, a supplier host in the own network). */
  allow: string[];
  /** host:port of the database, never reachable (also when its address is allowed). */
  database: { host: string; port: number } | null;
  maxRedirects?: number;
}

export interface FetchedMedia {
  body: Buffer;
  contentType: 'image/jpeg' | 'image/png' | 'application/pdf';
  /** The URL the bytes came from (after redirects). */
  url: string;
}

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'application/pdf']);
/** Image downloads accept JPEG or PNG only (a GIF, SVG or an HTML page named .jpg is refused). */
const ACCEPTED_PICTURES = new Set(['image/jpeg', 'image/png']);

/** How one medium is fetched: what it must be, and the supplier's fallback address and token. */
interface MediaSourceOptions {
  /** A product shows it as a picture: JPEG or PNG only. */
  picture?: boolean;
  /** The supplier's fallback address: the medium's file name under it is tried before the catalogue's address. */
  fallbackBaseUrl?: string | null;
  /** Bearer token for the supplier's media server. */
  token?: string | null;
}

/** The medium's address under the fallback address: its last path segment (the file name) joined to it. */
function fallbackUrlOf(source: string, fallbackBaseUrl: string): string | null {
  try {
    const name = new URL(source).pathname.split('/').pop();
    if (!name) return null;
    const base = new URL(fallbackBaseUrl.endsWith('/') ? fallbackBaseUrl : `${fallbackBaseUrl}/`);
    return new URL(name, base).toString();
  } catch {
    return null;
  }
}

/** The operator's allowlist (addresses or CIDR ranges). */
export function allowListOf(entries: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/');
    const family = net.isIPv6(address) ? 'ipv6' : net.isIPv4(address) ? 'ipv4' : null;
    if (!family) continue;
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** The addresses a host resolves to (an address literal is itself). */
async function addressesOf(host: string): Promise<{ address: string; family: 4 | 6 }[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) return [{ address: bare, family: net.isIPv6(bare) ? 6 : 4 }];
  try {
    return (await dns.lookup(bare, { all: true, verbatim: true })) as { address: string; family: 4 | 6 }[];
  } catch {
    throw new MediaFetchError(reasons.dns);
  }
}

export class MediaFetcherClient {
  private readonly allowed: net.BlockList;
  private databaseAddresses: Promise<Set<string>> | null = null;

  constructor(private readonly options: MediaFetchOptions) {
    this.allowed = allowListOf(options.allow);
  }

  /** The database server's addresses (resolved once): its port is never a media source. */
  private async database(): Promise<Set<string>> {
    const db = this.options.database;
    if (!db) return new Set();
    this.databaseAddresses ??= addressesOf(db.host)
      .then((list) => new Set(list.map((a) => plainAddress(a.address).address)))
      .catch(() => new Set<string>());
    return this.databaseAddresses;
  }

  /** The address to connect to for `url`: every address of its host must be allowed. */
  private async vetted(url: URL): Promise<{ address: string; family: 4 | 6 }> {
    const addresses = await addressesOf(url.hostname);
    if (!addresses.length) throw new MediaFetchError(reasons.dns);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const database = await this.database();
    for (const a of addresses) {
      const p = plainAddress(a.address);
      if (database.has(p.address) && port === this.options.database?.port) throw new MediaFetchError(reasons.address);
      // Internal addresses (the outbound policy shared with order transmission) only where the operator allows them.
      if (internalKind(p.address) !== null && !this.allowed.check(p.address, p.type))
        throw new MediaFetchError(reasons.address);
    }
    return addresses[0];
  }

  /**
   * The medium: from the fallback address first (when the supplier has one), else, or when that fails in any way,
   * from the catalogue's address; the error is the catalogue address's.
   */
  async fetch(source: string, options: MediaSourceOptions = {}): Promise<FetchedMedia> {
    const fallback = options.fallbackBaseUrl ? fallbackUrlOf(source, options.fallbackBaseUrl) : null;
    if (fallback && fallback !== source) {
      try {
        return await this.fetchOne(fallback, options);
      } catch (error) {
        if (!(error instanceof MediaFetchError)) throw error;
      }
    }
    return this.fetchOne(source, options);
  }

  private async fetchOne(source: string, options: MediaSourceOptions): Promise<FetchedMedia> {
    let url = parse(source);
    // The token belongs to the origin it is sent to: a redirect to another origin goes without it (as fetch() does).
    const tokenOrigin = options.token ? url.origin : null;
    const maxRedirects = this.options.maxRedirects ?? 3;
    for (let redirects = 0; ; redirects++) {
      const target = await this.vetted(url);
      const token = tokenOrigin === url.origin ? options.token : null;
      const response = await this.request(url, target, token ?? null);
      if (response.location !== null) {
        if (redirects >= maxRedirects) throw new MediaFetchError(reasons.redirects);
        url = parse(new URL(response.location, url).toString());
        continue;
      }
      // The bytes decide, not the extension or the server's content-type.
      const type = await fileTypeFromBuffer(response.body);
      const accepted = options.picture ? ACCEPTED_PICTURES : ACCEPTED;
      if (!type || !accepted.has(type.mime))
        throw new MediaFetchError(options.picture ? reasons.pictureType : reasons.type);
      return { body: response.body, contentType: type.mime as FetchedMedia['contentType'], url: url.toString() };
    }
  }

  /** One GET to the vetted address: a redirect's location, or the body (at most maxBytes). */
  private request(url: URL, target: { address: string; family: 4 | 6 }, token: string | null) {
    const { maxBytes, timeoutMs } = this.options;
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<{ location: string | null; body: Buffer }>((resolveRequest, rejectRequest) => {
      // The whole request, not only each pause of the socket: a server that drips its bytes is cut off too.
      const deadline = setTimeout(() => {
        request.destroy();
        reject(new MediaFetchError(reasons.timeout, true));
      }, timeoutMs);
      const resolve = (value: { location: string | null; body: Buffer }) => {
        clearTimeout(deadline);
        resolveRequest(value);
      };
      const reject = (error: MediaFetchError) => {
        clearTimeout(deadline);
        rejectRequest(error);
      };
      const request = client.get(
        url,
        {
          // Connect to the address checked above, not to what a second lookup might answer (DNS rebinding).
          lookup: (_host, options, callback) => {
            if ((options as { all?: boolean }).all) callback(null, [target] as never, target.family);
            else callback(null, target.address, target.family);
          },
          headers: {
            'user-agent': 'SHK-Bestellportal Medienabruf',
            accept: 'image/jpeg, image/png, application/pdf',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          timeout: timeoutMs,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400 && response.headers.location) {
            response.resume();
            return resolve({ location: response.headers.location, body: Buffer.alloc(0) });
          }
          if (status !== 200) {
            response.resume();
            return reject(new MediaFetchError(reasons.status(status), status >= 500 || status === 429));
          }
          const tooLarge = () => new MediaFetchError(reasons.tooLarge(Math.round(maxBytes / 1024 / 1024)));
          if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
            response.destroy();
            return reject(tooLarge());
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              response.destroy();
              reject(tooLarge());
            } else chunks.push(chunk);
          });
          response.on('end', () => resolve({ location: null, body: Buffer.concat(chunks) }));
          response.on('error', () => reject(new MediaFetchError(reasons.failed, true)));
        },
      );
      request.on('timeout', () => {
        request.destroy();
        reject(new MediaFetchError(reasons.timeout, true));
      });
      request.on('error', (error) => {
        if (error instanceof MediaFetchError) reject(error);
        else reject(new MediaFetchError(reasons.failed, true));
      });
    });
  }
}

function parse(source: string): URL {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new MediaFetchError(reasons.scheme);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new MediaFetchError(reasons.scheme);
  return url;
}
