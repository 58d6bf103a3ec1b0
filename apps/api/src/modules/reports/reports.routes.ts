import { z } from 'zod';
import {
  GenerateReportRequest,
  Report,
  ReportList,
  ReportListQuery,
  ReportTypeItem,
  Role,
  reportTypeNames,
  IdParams,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { callerOf } from '../../http/auth.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { ReportsService, reportWorkerOptionsOf } from './reports.service.ts';
import { periodic } from '../../lifecycle.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator];
const contentTypes = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
} as const;

export async function reportsRoutes(app: App, deps: AppDeps) {
  const service = new ReportsService(deps, reportWorkerOptionsOf(deps.config), {
    info: (...a) => app.log.info(a.map(String).join(' ')),
    error: (...a) => app.log.error(a[0] as object, String(a[1] ?? '')),
  });
  // REPORT_WORKER=off: this process generates no reports (another process does, with its own sweeper).
  if (deps.config.reports.worker) {
    service.registerWorker();
    deps.lifecycle.provide('report sweeper', {
      start: () => service.startSweeper(),
      stop: () => service.stopSweeper(),
    });
  }
  // Retention also runs when nobody generates.
  deps.lifecycle.provide(
    'report retention',
    periodic(() => service.removeExpired().catch((err) => app.log.error({ err }, 'report retention')), 3_600_000),
  );

  app.get(
    '/v1/Reports',
    {
      config: { roles: staff },
      schema: {
        tags: ['Berichte'],
        summary: 'Berichte des angemeldeten Benutzers (neueste zuerst)',
        querystring: ReportListQuery,
        response: { 200: ReportList },
      },
    },
    async (request) => service.list(callerOf(request).userId, request.query.Page, request.query.PageSize),
  );

  app.get(
    '/v1/Reports/ReportTypes',
    {
      config: { roles: staff },
      schema: { tags: ['Berichte'], summary: 'Berichtstypen', response: { 200: z.array(ReportTypeItem) } },
    },
    async () => Object.entries(reportTypeNames).map(([id, name]) => ({ id: Number(id), name })),
  );

  app.post(
    '/v1/Reports/Generate',
    {
      config: { roles: staff },
      schema: {
        tags: ['Berichte'],
        summary: 'Bericht erzeugen (asynchron; Status über GET /v1/Reports)',
        body: GenerateReportRequest,
        response: { 202: Report },
      },
    },
    async (request, reply) => reply.status(202).send(await service.generate(callerOf(request).userId, request.body)),
  );

  app.get(
    '/v1/Reports/Download/:id',
    {
      config: { roles: staff },
      schema: {
        tags: ['Berichte'],
        summary: 'Datei eines erzeugten Berichts herunterladen',
        params: IdParams,
      },
    },
    async (request, reply) => {
      const { file, fileName, format } = await service.download(callerOf(request).userId, request.params.id);
      return reply
        .header('content-type', contentTypes[format])
        .header('content-disposition', attachmentHeader(fileName))
        .send(file);
    },
  );
}
