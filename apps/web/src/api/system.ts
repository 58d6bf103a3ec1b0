import { api } from './client';
import { unwrap } from './problem';

/** Facts about the running API (the /version page). */
export const systemApi = {
  version: async (): Promise<string> => unwrap(await api.GET('/v1/Version')),
};
