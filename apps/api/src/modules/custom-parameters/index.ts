/**
 * Public face of the custom-parameters module: Custom order parameters of suppliers.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { customParameterRoutes } from './custom-parameters.routes.ts';
export { CustomParametersService } from './custom-parameters.service.ts';
