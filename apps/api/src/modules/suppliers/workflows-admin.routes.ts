import {
  CommunicationProtocol,
  HostKeyConfirmation,
  Int4IdParams as IdParams,
  Role,
  Workflow,
  WorkflowInput,
  WorkflowTestResult,
  workflowMessages,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { badRequest, conflict, notFound } from '../../http/problem.ts';
import { callerOf } from '../../http/auth.ts';
import { WorkflowsService, SecretBox, outboundPolicy, type OutboundPolicy } from '../transmission/index.ts';
import { testConnection } from './connection-test.ts';

const admin = [Role.Administrator] as const;
const tags = ['Lieferantenverwaltung'];
/** Profile names are unique (workflows.name). */
const uniqueName = (error: { code?: string }) => {
  if (error.code === '23505') throw conflict('Ein Workflow mit diesem Namen existiert bereits.');
  throw error;
};

/**
 * Administrators maintain the connection profiles on /admin (GET /v1/Workflow belongs to the
 * transmission module). Secrets are accepted, encrypted by the transmission module's service and never
 * returned.
 */
export async function workflowAdminRoutes(app: App, deps: AppDeps) {
  const { pool, config } = deps;
  // Built on first use: the OpenAPI generator registers routes without a database.
  let service: WorkflowsService | null = null;
  const workflows = () => (service ??= new WorkflowsService(pool, SecretBox.of(config)));
  let policy: OutboundPolicy | null = null;
  const outbound = () => (policy ??= outboundPolicy(deps));
  app.addHook('onClose', async () => {
    await policy?.close();
  });

  app.post(
    '/v1/Workflow',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Workflow (Verbindungsprofil) anlegen',
        body: WorkflowInput,
        response: { 201: Workflow },
      },
    },
    async (request, reply) => reply.status(201).send(await workflows().create(request.body).catch(uniqueName)),
  );

  app.put(
    '/v1/Workflow/:id',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary: 'Workflow ändern (Passwort/Schlüssel weglassen: bleibt; null: entfernen)',
        params: IdParams,
        body: WorkflowInput,
        response: { 200: Workflow },
      },
    },
    async (request) => {
      const updated = await workflows().update(request.params.id, request.body).catch(uniqueName);
      if (!updated) throw notFound('Workflow nicht gefunden');
      return updated;
    },
  );

  app.delete(
    '/v1/Workflow/:id',
    { config: { roles: admin }, schema: { tags, summary: 'Workflow löschen', params: IdParams } },
    async (request, reply) => {
      const result = await workflows().remove(request.params.id);
      if (result.usedBy.length) throw conflict(workflowMessages.inUse(result.usedBy.join(', ')));
      if (!result.deleted) throw notFound('Workflow nicht gefunden');
      return reply.status(204).send();
    },
  );

  app.post(
    '/v1/Workflow/:id/Test',
    {
      config: { roles: admin },
      schema: { tags, summary: 'Verbindung testen', params: IdParams, response: { 200: WorkflowTestResult } },
    },
    async (request) => {
      const connection = await workflows().connection(request.params.id);
      if (!connection) throw notFound('Workflow nicht gefunden');
      return testConnection(connection, outbound(), workflows());
    },
  );

  app.put(
    '/v1/Workflow/:id/HostKey',
    {
      config: { roles: admin },
      schema: {
        tags,
        summary:
          'SFTP-Hostschlüssel bestätigen oder einen geänderten Schlüssel annehmen (Fingerabdruck aus „Verbindung testen“)',
        params: IdParams,
        body: HostKeyConfirmation,
        response: { 200: Workflow },
      },
    },
    async (request) => {
      const current = await workflows().get(request.params.id);
      if (!current) throw notFound('Workflow nicht gefunden');
      if (current.communicationProtocol !== CommunicationProtocol.Sftp)
        throw badRequest(workflowMessages.hostKeyNotSftp);
      const caller = callerOf(request);
      const by = caller.email ?? String(caller.userId);
      return (await workflows().confirmHostKey(request.params.id, request.body.fingerprint, by))!;
    },
  );
}
