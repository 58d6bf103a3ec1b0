import crypto from 'node:crypto';
import SftpClient from 'ssh2-sftp-client';
import { CommunicationProtocol, outboundMessages } from '@shk/contracts';
import {
  PermanentTransmissionError,
  type OrderTransmitter,
  type TransmissionDocument,
  type WorkflowConnection,
} from '../transmission.types.ts';
import type { OutboundPolicy } from '../outbound.ts';
import { joinRemote, remoteFolder, requireHost, requireWorkflow, temporaryName, uniqueName } from './connection.ts';

/** Idle SSH connections are kept this long: the handshake costs far more than an upload. */
const IDLE_MS = 20_000;
/**
 * Mode of uploaded files: owner read/write, group read. The server's umask still applies; never 0666
 * (ssh2's default), which lets every account on the supplier's server change an order.
 */
export const UPLOAD_MODE = 0o640;

/** SHA256 fingerprint of an SSH public key blob as `ssh-keygen -l` prints it ('SHA256:' + unpadded base64). */
export const hostKeyFingerprint = (key: Buffer) =>
  `SHA256:${crypto.createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;

/** Where pinned host keys live (the workflows service): one key per workflow, host and port. */
export interface HostKeyStore {
  pinnedHostKey(workflowId: number, host: string, port: number): Promise<{ fingerprint: string } | null>;
  pinFirstHostKey(workflowId: number, host: string, port: number, fingerprint: string): Promise<string>;
}

/** The server presented another key than the pinned one: nothing was sent, not even credentials. */
export class HostKeyMismatchError extends PermanentTransmissionError {
  constructor(
    readonly pinned: string,
    readonly presented: string,
  ) {
    super(outboundMessages.hostKeyChanged(pinned, presented));
  }
}

export interface OpenedSftp {
  client: SftpClient;
  /** The fingerprint the server presented. */
  presented: string;
  /** The fingerprint pinned before connecting (null: none). */
  pinned: string | null;
}

/**
 * Logs in to the workflow's SFTP server at the address the policy allows. The server's host key must equal the
 * pinned one: a changed key ends the handshake before authentication (no password or key signature reaches
 * that server) with HostKeyMismatchError naming both fingerprints. Without a pinned key any key is let in; the
 * caller decides whether to pin the one it saw (`presented`).
 */
export async function openSftp(
  workflow: Pick<WorkflowConnection, 'id' | 'host' | 'port' | 'username' | 'password' | 'privateKey' | 'timeoutMs'>,
  policy: OutboundPolicy,
  pinned: string | null,
): Promise<OpenedSftp> {
  const port = workflow.port ?? 22;
  const address = await policy.resolve(workflow.host, port);
  let presented: string | null = null;
  const client = new SftpClient();
  try {
    await client.connect({
      host: address,
      port,
      username: workflow.username ?? undefined,
      password: workflow.password ?? undefined,
      privateKey: workflow.privateKey ?? undefined,
      readyTimeout: workflow.timeoutMs,
      retries: 0,
      hostVerifier: (key: Buffer) => {
        presented = hostKeyFingerprint(key);
        return pinned === null || pinned === presented;
      },
    });
  } catch (error) {
    await client.end().catch(() => undefined);
    if (presented && pinned && presented !== pinned) throw new HostKeyMismatchError(pinned, presented);
    throw error;
  }
  return { client, presented: presented!, pinned };
}

/** Connections per workflow, target and pinned key, each used by one transmission at a time. */
class SftpConnections {
  private readonly idle = new Map<string, { client: SftpClient; timer: NodeJS.Timeout }[]>();

  constructor(
    private readonly policy: OutboundPolicy,
    private readonly hostKeys: HostKeyStore,
  ) {}

  async use<T>(workflow: WorkflowConnection, work: (client: SftpClient) => Promise<T>): Promise<T> {
    const host = requireHost(workflow);
    const port = workflow.port ?? 22;
    const pinned = (await this.hostKeys.pinnedHostKey(workflow.id, host, port))?.fingerprint ?? null;
    const key = `${workflow.id}|${host}|${port}|${workflow.username}|${pinned}`;
    const pooled = this.idle.get(key)?.pop();
    if (pooled) {
      clearTimeout(pooled.timer);
      try {
        const result = await work(pooled.client);
        this.release(key, pooled.client);
        return result;
      } catch (error) {
        await pooled.client.end().catch(() => undefined);
        // A delivery error must not be repeated on a fresh connection (the bytes may have arrived); only a
        // connection the server closed while idle is tried once more.
        if (!isClosedConnection(error)) throw error;
      }
    }
    const { client, presented } = await openSftp(workflow, this.policy, pinned);
    try {
      if (pinned === null) {
        // Trust on first use: nothing pinned yet, the key seen now is pinned (shown to staff for confirmation).
        const now = await this.hostKeys.pinFirstHostKey(workflow.id, host, port, presented);
        if (now !== presented) throw new HostKeyMismatchError(now, presented);
      }
      const result = await work(client);
      this.release(`${workflow.id}|${host}|${port}|${workflow.username}|${presented}`, client);
      return result;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private release(key: string, client: SftpClient) {
    const list = this.idle.get(key) ?? [];
    const entry = {
      client,
      timer: setTimeout(() => {
        list.splice(list.indexOf(entry), 1);
        void client.end().catch(() => undefined);
      }, IDLE_MS),
    };
    entry.timer.unref();
    list.push(entry);
    this.idle.set(key, list);
  }

  async closeAll() {
    const all = [...this.idle.values()].flat();
    this.idle.clear();
    await Promise.allSettled(
      all.map((e) => {
        clearTimeout(e.timer);
        return e.client.end();
      }),
    );
  }
}

const isClosedConnection = (error: unknown) =>
  /No SFTP connection|not connected|ECONNRESET|closed|end/i.test(error instanceof Error ? error.message : '');

/**
 * One document: written to a temporary name of its own (created 0640), its size on the server checked against
 * the bytes sent, then renamed to the order's file name — or, when a file of that name is already there (another
 * order's, an old one, a supplier's), to a unique name with the order number and this attempt's message id.
 * Nothing is decided from a name alone: every attempt writes its bytes.
 */
async function upload(client: SftpClient, folder: string, document: TransmissionDocument, messageId: string) {
  const temporary = joinRemote(folder, temporaryName(document.fileName, messageId));
  await client.put(document.content, temporary, { writeStreamOptions: { mode: UPLOAD_MODE } });
  try {
    const { size } = await client.stat(temporary);
    if (size !== document.content.length) throw new Error(outboundMessages.incomplete(size, document.content.length));
    const final = joinRemote(folder, document.fileName);
    const unique = joinRemote(folder, uniqueName(document.fileName, messageId));
    if (await client.exists(final)) {
      await client.rename(temporary, unique);
      return unique;
    }
    try {
      // SFTP's RENAME never replaces an existing file (OpenSSH links, then unlinks): a file that appeared in
      // the meantime makes it fail, and the document goes under its unique name instead.
      await client.rename(temporary, final);
      return final;
    } catch (error) {
      if (!(await client.exists(final))) throw error;
      await client.rename(temporary, unique);
      return unique;
    }
  } catch (error) {
    await client.delete(temporary, true).catch(() => undefined);
    throw error;
  }
}

/**
 * Sftp (2): every document into out_ftp_folder under a temporary name, size checked, then renamed (see
 * `upload`). The server's host key must match the one pinned for the workflow (trust on first use).
 */
export function sftpTransmitter(policy: OutboundPolicy, hostKeys: HostKeyStore): OrderTransmitter {
  const connections = new SftpConnections(policy, hostKeys);
  return {
    protocolId: CommunicationProtocol.Sftp,
    async transmit({ target, documents, messageId }) {
      const workflow = requireWorkflow(target, 'SFTP');
      requireHost(workflow);
      const folder = remoteFolder(target);
      const names = await connections.use(workflow, async (client) => {
        const done: string[] = [];
        for (const document of documents) done.push(await upload(client, folder, document, messageId));
        return done;
      });
      return { remoteNames: names, messageId };
    },
    close: () => connections.closeAll(),
  };
}
