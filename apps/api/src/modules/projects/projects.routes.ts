import { z } from 'zod';
import { Project, ProjectInput, Role } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { currentPartnerOf } from '../../http/auth.ts';
import { ProjectsService } from './projects.service.ts';

export async function projectsRoutes(app: App, { db }: AppDeps) {
  const projects = new ProjectsService(db);

  app.get(
    '/v1/Projects',
    {
      config: { ids: 'allowed', roles: [Role.Buyer] },
      schema: {
        tags: ['Projekte'],
        summary: 'Projekte des aktuellen Geschäftspartners',
        response: { 200: z.array(Project) },
      },
    },
    async (request) => projects.list(currentPartnerOf(request)),
  );

  app.post(
    '/v1/Projects',
    {
      config: { roles: [Role.Buyer] },
      schema: { tags: ['Projekte'], summary: 'Projekt anlegen', body: ProjectInput, response: { 201: Project } },
    },
    async (request, reply) => reply.status(201).send(await projects.create(currentPartnerOf(request), request.body)),
  );
}
