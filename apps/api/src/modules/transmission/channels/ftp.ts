import { Readable } from 'node:stream';
import { Client, FTPError } from 'basic-ftp';
import { CommunicationProtocol, outboundMessages } from '@shk/contracts';
import type { OrderTransmitter, TransmissionDocument, WorkflowConnection } from '../transmission.types.ts';
import type { OutboundPolicy } from '../outbound.ts';
import { joinRemote, remoteFolder, requireHost, requireWorkflow, temporaryName, uniqueName } from './connection.ts';

/**
 * Logs in at the address the policy allows. Data connections go to that address too, whatever a PASV answer
 * names (a server could otherwise point the portal at any internal host).
 */
export async function openFtp(
  workflow: Pick<WorkflowConnection, 'host' | 'port' | 'username' | 'password' | 'timeoutMs'>,
  policy: OutboundPolicy,
): Promise<Client> {
  const port = workflow.port ?? 21;
  const address = await policy.resolve(workflow.host, port);
  const client = new Client(workflow.timeoutMs, { allowSeparateTransferHost: false, maxListingBytes: 1024 * 1024 });
  try {
    await client.access({
      host: address,
      port,
      user: workflow.username ?? 'anonymous',
      password: workflow.password ?? undefined,
    });
  } catch (error) {
    client.close();
    throw error;
  }
  return client;
}

/** SIZE of a remote file; null when there is none (550). */
async function remoteSize(client: Client, name: string): Promise<number | null> {
  try {
    return await client.size(name);
  } catch (error) {
    if (error instanceof FTPError && error.code === 550) return null;
    throw error;
  }
}

/**
 * One document: STOR to a temporary name of its own, SIZE checked against the bytes sent, then RNFR/RNTO to the
 * order's file name — or to a unique name (order number plus message id) when that name is taken. FTP servers
 * replace an existing file on rename (vsftpd does), so the final name is checked right before; a file appearing
 * in between is the one race FTP cannot rule out.
 */
async function upload(client: Client, folder: string, document: TransmissionDocument, messageId: string) {
  const temporary = joinRemote(folder, temporaryName(document.fileName, messageId));
  await client.uploadFrom(Readable.from(document.content), temporary);
  try {
    const size = await remoteSize(client, temporary);
    if (size !== document.content.length)
      throw new Error(outboundMessages.incomplete(size ?? 0, document.content.length));
    const final = joinRemote(folder, document.fileName);
    const target =
      (await remoteSize(client, final)) === null ? final : joinRemote(folder, uniqueName(document.fileName, messageId));
    await client.rename(temporary, target);
    return target;
  } catch (error) {
    await client.remove(temporary, true).catch(() => undefined);
    throw error;
  }
}

/** Ftp (5): like SFTP – temporary name, size check, rename; a taken name gets a unique one. */
export function ftpTransmitter(policy: OutboundPolicy): OrderTransmitter {
  return {
    protocolId: CommunicationProtocol.Ftp,
    async transmit({ target, documents, messageId }) {
      const workflow = requireWorkflow(target, 'FTP');
      requireHost(workflow);
      const client = await openFtp(workflow, policy);
      try {
        const folder = remoteFolder(target);
        const names: string[] = [];
        for (const document of documents) names.push(await upload(client, folder, document, messageId));
        return { remoteNames: names, messageId };
      } finally {
        client.close();
      }
    },
  };
}
