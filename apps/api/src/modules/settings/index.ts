/**
 * Public face of the settings module: Feature settings and configuration values.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export { settingsRoutes } from './settings.routes.ts';
export {
  ensureFeatureSettings,
  readConfiguration,
  readConfigurationValues,
  readListSetting,
  readNumberSetting,
  type ConfigurationValue,
} from './settings.service.ts';
