/** The signed-in user of a request, as the API sees it (found from the token, cached per user). */
import type { Role } from '@shk/contracts';

/** Who is calling: always read from our database, never from the browser. */
export interface Caller {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  /** Current business partner, or null when the user has none. */
  bpNumber: string | null;
  /** All business partners the user belongs to (in an IDS session only the session's partner). */
  partners: string[];
  /** Set for an IDS session's token: the narrow scope of docs/ids.md ("IDS session") applies. */
  idsContextId: string | null;
}
