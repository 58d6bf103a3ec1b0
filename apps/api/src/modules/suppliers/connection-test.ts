import SftpClient from 'ssh2-sftp-client';
import { Client as FtpClient } from 'basic-ftp';
import { CommunicationProtocol, workflowMessages, type WorkflowTestResult } from '@shk/contracts';

export interface TestableConnection {
  protocolId: number;
  host: string | null;
  port: number | null;
  username: string | null;
  password: string | null;
  privateKey: string | null;
  baseUrl: string | null;
  timeoutMs: number;
}

/** Short, German-led reason without stack traces or secrets. */
const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

/**
 * 'Verbindung testen': logs in and asks for the login directory (SFTP, FTP) or sends a HEAD request to
 * the base URL (HTTP, API; any HTTP answer proves the endpoint is reachable, a 5xx does not). Nothing
 * is written on the remote side.
 */
export async function testConnection(c: TestableConnection): Promise<WorkflowTestResult> {
  const started = Date.now();
  const done = (ok: boolean, message: string) => ({ ok, message, durationMs: Date.now() - started });
  try {
    if (c.protocolId === CommunicationProtocol.Sftp) {
      const client = new SftpClient();
      try {
        await client.connect({
          host: c.host ?? '',
          port: c.port ?? 22,
          username: c.username ?? undefined,
          password: c.password ?? undefined,
          privateKey: c.privateKey ?? undefined,
          readyTimeout: c.timeoutMs,
          retries: 0,
        });
        await client.cwd();
      } finally {
        await client.end().catch(() => undefined);
      }
      return done(true, workflowMessages.testOk);
    }
    if (c.protocolId === CommunicationProtocol.Ftp) {
      const client = new FtpClient(c.timeoutMs);
      try {
        await client.access({
          host: c.host ?? '',
          port: c.port ?? 21,
          user: c.username ?? 'anonymous',
          password: c.password ?? undefined,
        });
        await client.pwd();
      } finally {
        client.close();
      }
      return done(true, workflowMessages.testOk);
    }
    const response = await fetch(c.baseUrl ?? '', { method: 'HEAD', signal: AbortSignal.timeout(c.timeoutMs) });
    if (response.status >= 500) return done(false, workflowMessages.testFailed(`HTTP ${response.status}`));
    return done(true, `${workflowMessages.testOk} (HTTP ${response.status})`);
  } catch (error) {
    return done(false, workflowMessages.testFailed(reasonOf(error)));
  }
}
