import { z } from 'zod';
import { Project, ProjectInput, ProblemType, Role, cartMessages } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { currentPartnerOf } from '../../http/auth.ts';
import { HttpProblem } from '../../http/problem.ts';

export async function projectsRoutes(app: App, { db }: AppDeps) {
  app.get('/v1/Projects', {
    config: { roles: [Role.Buyer] },
    schema: { tags: ['Projekte'], summary: 'Projekte des aktuellen Geschäftspartners', response: { 200: z.array(Project) } },
  }, async (request) => {
    const { rows } = await db.$client.query('SELECT id, code, description FROM projects WHERE bp_number = $1 ORDER BY lower(code)', [currentPartnerOf(request)]);
    return rows.map((r) => ({ id: Number(r.id), code: r.code, description: r.description }));
  });

  app.post('/v1/Projects', {
    config: { roles: [Role.Buyer] },
    schema: { tags: ['Projekte'], summary: 'Projekt anlegen', body: ProjectInput, response: { 201: Project } },
  }, async (request, reply) => {
    const { rows } = await db.$client.query(
      `INSERT INTO projects (bp_number, code, description) VALUES ($1, $2, $3)
       ON CONFLICT (bp_number, lower(code)) DO NOTHING RETURNING id, code, description`,
      [currentPartnerOf(request), request.body.code, request.body.description || null]);
    if (!rows[0]) {
      throw new HttpProblem(400, cartMessages.projectExists, { type: ProblemType.entityAlreadyExists, errors: [{ field: 'body.code', message: cartMessages.projectExists }] });
    }
    return reply.status(201).send({ id: Number(rows[0].id), code: rows[0].code, description: rows[0].description });
  });
}
