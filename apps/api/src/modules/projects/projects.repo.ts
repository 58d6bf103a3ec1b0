import type { Project, ProjectInput } from '@shk/contracts';
import type { Queryable } from '../../db/queryable.ts';

const toProject = (r: { id: string | number; code: string; description: string | null }): Project => ({
  id: Number(r.id),
  code: r.code,
  description: r.description,
});

export async function listProjects(db: Queryable, bpNumber: string): Promise<Project[]> {
  const { rows } = await db.query(
    'SELECT id, code, description FROM projects WHERE bp_number = $1 ORDER BY lower(code)',
    [bpNumber],
  );
  return rows.map(toProject);
}

/** The new project, or null when the partner already has one with this code (case-insensitive). */
export async function insertProject(db: Queryable, bpNumber: string, input: ProjectInput): Promise<Project | null> {
  const { rows } = await db.query(
    `INSERT INTO projects (bp_number, code, description) VALUES ($1, $2, $3)
     ON CONFLICT (bp_number, lower(code)) DO NOTHING RETURNING id, code, description`,
    [bpNumber, input.code, input.description || null],
  );
  return rows[0] ? toProject(rows[0]) : null;
}
