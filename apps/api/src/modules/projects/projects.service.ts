import { ProblemType, cartMessages, type Project, type ProjectInput } from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { HttpProblem } from '../../http/problem.ts';
import { insertProject, listProjects } from './projects.repo.ts';

/** Projects of a business partner (codes unique per partner, case-insensitive). */
export class ProjectsService {
  constructor(private readonly handle: Db) {}

  /** Read on use: the OpenAPI generator registers routes without a database. */
  private get db() {
    return this.handle.$client;
  }

  list(bpNumber: string): Promise<Project[]> {
    return listProjects(this.db, bpNumber);
  }

  async create(bpNumber: string, input: ProjectInput): Promise<Project> {
    const project = await insertProject(this.db, bpNumber, input);
    if (!project)
      throw new HttpProblem(400, cartMessages.projectExists, {
        type: ProblemType.entityAlreadyExists,
        errors: [{ field: 'body.code', message: cartMessages.projectExists }],
      });
    return project;
  }
}
