import { CommunicationProtocol, outboundMessages, workflowMessages, type WorkflowTestResult } from '@shk/contracts';
import {
  HostKeyMismatchError,
  describeOutboundError,
  openFtp,
  openSftp,
  type OutboundPolicy,
  type WorkflowConnection,
  type WorkflowsService,
} from '../transmission/index.ts';

type HostKeyCheck = NonNullable<WorkflowTestResult['hostKey']>;

/** The German failure text: our reasons already start with 'Verbindung fehlgeschlagen', others get it. */
const failureText = (error: unknown) => {
  const reason = describeOutboundError(error);
  return reason.startsWith('Verbindung fehlgeschlagen') ? reason : workflowMessages.testFailed(reason);
};

/**
 * SFTP: logs in and shows the host key the server presents beside the pinned one. Nothing is pinned here: staff
 * confirm the fingerprint they were shown (PUT …/HostKey). A changed key fails the test with both fingerprints,
 * before any credentials are sent to that server.
 */
async function testSftp(c: WorkflowConnection, policy: OutboundPolicy, workflows: WorkflowsService) {
  const port = c.port ?? 22;
  const pin = await workflows.pinnedHostKey(c.id, c.host ?? '', port);
  const pinned = pin?.fingerprint ?? null;
  let opened: Awaited<ReturnType<typeof openSftp>>;
  try {
    opened = await openSftp(c, policy, pinned);
  } catch (error) {
    // A changed key stops the handshake before the login: the test shows both fingerprints, nothing else.
    if (!(error instanceof HostKeyMismatchError)) throw error;
    return {
      ok: false,
      message: workflowMessages.testFailed(workflowMessages.hostKeyChanged(error.pinned, error.presented)),
      hostKey: { fingerprint: error.presented, pinned: error.pinned, status: 'changed' as const },
    };
  }
  try {
    const { presented } = opened;
    const status: HostKeyCheck['status'] = pinned === null ? 'new' : pin?.confirmed_at ? 'match' : 'unconfirmed';
    await opened.client.cwd();
    const message =
      status === 'new'
        ? `${workflowMessages.testOk} ${workflowMessages.hostKeyNew(presented)}`
        : status === 'unconfirmed'
          ? `${workflowMessages.testOk} ${workflowMessages.hostKeyUnconfirmed(presented)}`
          : workflowMessages.testOk;
    return { ok: true, message, hostKey: { fingerprint: presented, pinned, status } };
  } finally {
    await opened.client.end().catch(() => undefined);
  }
}

/**
 * 'Verbindung testen': logs in and asks for the login directory (SFTP, FTP) or sends a HEAD request to the base
 * URL (HTTP, API; any HTTP answer below 500 proves the endpoint is reachable; redirects are not followed). Only
 * targets the outbound policy allows are contacted; failures are German reasons. Nothing is written remotely.
 */
export async function testConnection(
  c: WorkflowConnection,
  policy: OutboundPolicy,
  workflows: WorkflowsService,
): Promise<WorkflowTestResult> {
  const started = Date.now();
  const done = (result: { ok: boolean; message: string; hostKey?: HostKeyCheck | null }) => ({
    hostKey: null,
    ...result,
    durationMs: Date.now() - started,
  });
  try {
    if (c.protocolId === CommunicationProtocol.Sftp) {
      if (!c.host) return done({ ok: false, message: workflowMessages.testFailed(outboundMessages.noHost) });
      return done(await testSftp(c, policy, workflows));
    }
    if (c.protocolId === CommunicationProtocol.Ftp) {
      const client = await openFtp(c, policy);
      try {
        await client.pwd();
      } finally {
        client.close();
      }
      return done({ ok: true, message: workflowMessages.testOk });
    }
    const response = await policy.fetch(c.baseUrl ?? '', { method: 'HEAD' }, c.timeoutMs).catch((error: Error) => {
      // A redirect proves the endpoint answers; it is not followed (the answer is what staff need to see).
      if (/^Weiterleitung nicht erlaubt/.test(error.message)) return { status: 300, redirect: error.message } as const;
      throw error;
    });
    if ('redirect' in response) return done({ ok: false, message: workflowMessages.testFailed(response.redirect) });
    await response.body?.cancel().catch(() => undefined);
    if (response.status >= 500)
      return done({ ok: false, message: workflowMessages.testFailed(`HTTP ${response.status}`) });
    return done({ ok: true, message: `${workflowMessages.testOk} (HTTP ${response.status})` });
  } catch (error) {
    return done({ ok: false, message: failureText(error) });
  }
}
