import type { InviteUserBody } from '@shk/contracts';
import { api } from './client';
import { unwrap } from './problem';

/** Users staff manage: invitations by mail (the person sets the password through the mailed link). */
export const usersApi = {
  invite: async (body: InviteUserBody) => unwrap(await api.POST('/v1/Users/Invitations', { body })),
};
