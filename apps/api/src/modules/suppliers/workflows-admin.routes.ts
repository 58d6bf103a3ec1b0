import {
  Int4IdParams as IdParams,
  Role,
  Workflow,
  WorkflowInput,
  WorkflowTestResult,
  workflowMessages,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { conflict, notFound } from '../../http/problem.ts';
import { WorkflowsService, SecretBox } from '../transmission/index.ts';
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
export async function workflowAdminRoutes(app: App, { pool, config }: AppDeps) {
  // Built on first use: the OpenAPI generator registers routes without a database.
  let service: WorkflowsService | null = null;
  const workflows = () => (service ??= new WorkflowsService(pool, SecretBox.of(config)));

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
      return testConnection({ ...connection, protocolId: connection.protocolId });
    },
  );
}
