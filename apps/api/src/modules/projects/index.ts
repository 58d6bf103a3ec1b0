/**
 * Public face of the projects module: Projects of a buyer.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { projectsRoutes } from './projects.routes.ts';
export { ProjectsService } from './projects.service.ts';
