import { Readable } from 'node:stream';
import { Client } from 'basic-ftp';
import { CommunicationProtocol } from '@shk/contracts';
import type { OrderTransmitter } from '../transmission.types.ts';
import { joinRemote, remoteFolder, requireHost, requireWorkflow, temporaryName } from './connection.ts';

/** Ftp (5): like SFTP – temporary name, rename, and an existing final file counts as delivered. */
export function ftpTransmitter(): OrderTransmitter {
  return {
    protocolId: CommunicationProtocol.Ftp,
    async transmit({ target, documents, idempotencyKey }) {
      const workflow = requireWorkflow(target, 'FTP');
      const client = new Client(workflow.timeoutMs);
      try {
        await client.access({
          host: requireHost(workflow),
          port: workflow.port ?? 21,
          user: workflow.username ?? 'anonymous',
          password: workflow.password ?? undefined,
        });
        const folder = remoteFolder(target);
        const names: string[] = [];
        for (const document of documents) {
          const final = joinRemote(folder, document.fileName);
          names.push(final);
          const existing = await client.size(final).catch(() => null);
          if (existing != null) continue;
          const temporary = joinRemote(folder, temporaryName(document.fileName, idempotencyKey));
          await client.uploadFrom(Readable.from(document.content), temporary);
          await client.rename(temporary, final);
        }
        return { remoteNames: names };
      } finally {
        client.close();
      }
    },
  };
}
