import type { components } from './schema';

/** Short names for the API's schemas (generated from /v1/openapi.json). */
type Schemas = components['schemas'];
export type UserProfile = Schemas['UserProfile'];
export type BusinessPartner = Schemas['BusinessPartner'];
export type ConfigurationValue = Schemas['ConfigurationValue'];
export type ClientConfig = Schemas['ClientConfig'];
