import SftpClient from 'ssh2-sftp-client';
import { CommunicationProtocol } from '@shk/contracts';
import type { OrderTransmitter, TransmissionDocument, WorkflowConnection } from '../transmission.types.ts';
import { joinRemote, remoteFolder, requireHost, requireWorkflow, temporaryName } from './connection.ts';

/** Idle SSH connections are kept this long: the handshake costs far more than an upload. */
const IDLE_MS = 20_000;

/** Connections per workflow, each used by one transmission at a time. */
class SftpConnections {
  private readonly idle = new Map<string, { client: SftpClient; timer: NodeJS.Timeout }[]>();

  private key(w: WorkflowConnection) {
    return `${w.id}|${w.host}|${w.port}|${w.username}`;
  }

  async use<T>(workflow: WorkflowConnection, work: (client: SftpClient) => Promise<T>): Promise<T> {
    const pooled = this.idle.get(this.key(workflow))?.pop();
    if (pooled) {
      clearTimeout(pooled.timer);
      try {
        const result = await work(pooled.client);
        this.release(workflow, pooled.client);
        return result;
      } catch {
        // The server may have closed an idle connection: one more try on a fresh one.
        await pooled.client.end().catch(() => undefined);
      }
    }
    const client = await this.connect(workflow);
    try {
      const result = await work(client);
      this.release(workflow, client);
      return result;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private async connect(workflow: WorkflowConnection) {
    const client = new SftpClient();
    await client.connect({
      host: requireHost(workflow),
      port: workflow.port ?? 22,
      username: workflow.username ?? undefined,
      password: workflow.password ?? undefined,
      privateKey: workflow.privateKey ?? undefined,
      readyTimeout: workflow.timeoutMs,
      retries: 0,
    });
    return client;
  }

  private release(workflow: WorkflowConnection, client: SftpClient) {
    const key = this.key(workflow);
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

async function upload(client: SftpClient, folder: string, document: TransmissionDocument, key: string) {
  const final = joinRemote(folder, document.fileName);
  if (await client.exists(final)) return final;
  const temporary = joinRemote(folder, temporaryName(document.fileName, key));
  await client.put(document.content, temporary);
  await client.rename(temporary, final);
  return final;
}

/**
 * Sftp (2): upload into out_ftp_folder under a temporary name, then rename. A file of the same name
 * already there means an earlier attempt delivered it (crash before our status update): not sent again.
 */
export function sftpTransmitter(): OrderTransmitter {
  const connections = new SftpConnections();
  return {
    protocolId: CommunicationProtocol.Sftp,
    async transmit({ target, documents, idempotencyKey }) {
      const workflow = requireWorkflow(target, 'SFTP');
      requireHost(workflow);
      const folder = remoteFolder(target);
      const names = await connections.use(workflow, async (client) => {
        const done: string[] = [];
        for (const document of documents) done.push(await upload(client, folder, document, idempotencyKey));
        return done;
      });
      return { remoteNames: names };
    },
    close: () => connections.closeAll(),
  };
}
