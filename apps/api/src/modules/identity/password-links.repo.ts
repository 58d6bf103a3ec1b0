import type { Queryable } from '../../db/queryable.ts';

/** One-time set-password links (table password_links: only the token's SHA-256 is stored) and what a new password ends. */

export type LinkPurpose = 'reset' | 'invitation';

export interface LinkRow {
  user_id: string;
  purpose: LinkPurpose;
  email: string;
  first_name: string;
  last_name: string;
  /** The link is unknown, used or expired when this is false. */
  usable: boolean;
}

export async function insertLink(
  c: Queryable,
  link: { tokenHash: Buffer; userId: string; purpose: LinkPurpose; validSeconds: number; createdBy?: string | null },
): Promise<Date> {
  const { rows } = await c.query<{ expires_at: Date }>(
    `INSERT INTO password_links (token_hash, user_id, purpose, expires_at, created_by)
     VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5) RETURNING expires_at`,
    [link.tokenHash, link.userId, link.purpose, link.validSeconds, link.createdBy ?? null],
  );
  return rows[0].expires_at;
}

/** The link of a token hash with its user; `usable` says whether it may still set a password. */
export async function findLink(c: Queryable, tokenHash: Buffer): Promise<LinkRow | undefined> {
  const { rows } = await c.query<LinkRow>(
    `SELECT l.user_id, l.purpose, u.email, u.first_name, u.last_name,
            (l.used_at IS NULL AND l.expires_at > now()) AS usable
       FROM password_links l JOIN users u ON u.id = l.user_id
      WHERE l.token_hash = $1`,
    [tokenHash],
  );
  return rows[0];
}

/**
 * Marks the link used if it still may be (row lock: of two parallel submissions only one wins); returns its user,
 * or undefined when it was used, expired or unknown.
 */
export async function claimLink(c: Queryable, tokenHash: Buffer): Promise<{ user_id: string } | undefined> {
  const { rows } = await c.query<{ user_id: string }>(
    `UPDATE password_links SET used_at = now()
      WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
      RETURNING user_id`,
    [tokenHash],
  );
  return rows[0];
}

/** Sets the password hash and ends every open link of the user (older reset and invitation links stop working). */
export async function setPasswordHash(c: Queryable, userId: string, hash: string): Promise<void> {
  await c.query('UPDATE users SET password_hash = $2, password_changed_at = now() WHERE id = $1', [userId, hash]);
  await c.query('UPDATE password_links SET used_at = now() WHERE user_id = $1 AND used_at IS NULL', [userId]);
}

/** Drops links that expired a day ago (called now and then: the table stays small). */
export async function dropOldLinks(c: Queryable): Promise<void> {
  await c.query("DELETE FROM password_links WHERE expires_at < now() - interval '1 day'");
}

export interface UserForLink {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  external_subject: string | null;
}

export async function findUserByEmail(c: Queryable, email: string): Promise<UserForLink | undefined> {
  const { rows } = await c.query<UserForLink>(
    `SELECT id, email, first_name, last_name, password_hash, external_subject
       FROM users WHERE lower(email) = lower($1)`,
    [email],
  );
  return rows[0];
}

export async function findUserById(c: Queryable, id: string): Promise<UserForLink | undefined> {
  const { rows } = await c.query<UserForLink>(
    'SELECT id, email, first_name, last_name, password_hash, external_subject FROM users WHERE id = $1',
    [id],
  );
  return rows[0];
}

/** The business partners among `numbers` that exist, and whether each is a supplier (sellers work for those). */
export async function existingPartners(
  c: Queryable,
  numbers: string[],
): Promise<{ bp_number: string; is_supplier: boolean }[]> {
  const { rows } = await c.query<{ bp_number: string; is_supplier: boolean }>(
    `SELECT bp.bp_number, EXISTS (SELECT 1 FROM suppliers s WHERE s.bp_number = bp.bp_number) AS is_supplier
       FROM business_partners bp WHERE bp.bp_number = ANY($1::text[])`,
    [numbers],
  );
  return rows;
}

/** A new user without a password (it is set through the invitation link). */
export async function insertInvitedUser(
  c: Queryable,
  user: { id: string; email: string; firstName: string; lastName: string; role: number; partners: string[] },
): Promise<void> {
  await c.query(
    `INSERT INTO users (id, email, first_name, last_name, role, password_hash, current_bp_number)
     VALUES ($1, $2, $3, $4, $5, NULL, $6)`,
    [user.id, user.email, user.firstName, user.lastName, user.role, user.partners[0] ?? null],
  );
  if (user.partners.length) {
    await c.query(
      `INSERT INTO user_business_partners (user_id, bp_number) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
      [user.id, user.partners],
    );
  }
}

/**
 * The grants (sign-ins) of an account other than `keepGrantId`: a new password ends them. Grants are oidc-provider
 * payloads (adapter.ts); their account is in the payload.
 */
export async function otherGrantsOf(c: Queryable, accountId: string, keepGrantId: string | null): Promise<string[]> {
  const { rows } = await c.query<{ id: string }>(
    `SELECT id FROM oidc_payloads
      WHERE type = 'Grant' AND payload->>'accountId' = $1 AND ($2::text IS NULL OR id <> $2)`,
    [accountId, keepGrantId],
  );
  return rows.map((r) => r.id);
}

/** Ends the provider sessions (browser sign-ins) of an account except the one that holds `keepGrantId`. */
export async function deleteOtherSessions(c: Queryable, accountId: string, keepGrantId: string | null): Promise<void> {
  await c.query(
    `DELETE FROM oidc_payloads
      WHERE type = 'Session' AND payload->>'accountId' = $1
        AND ($2::text IS NULL OR NOT EXISTS (
              SELECT 1 FROM jsonb_each(coalesce(payload->'authorizations', '{}'::jsonb)) a
               WHERE a.value->>'grantId' = $2))`,
    [accountId, keepGrantId],
  );
}

export async function deleteGrant(c: Queryable, grantId: string): Promise<void> {
  await c.query("DELETE FROM oidc_payloads WHERE (type = 'Grant' AND id = $1) OR grant_id = $1", [grantId]);
}

/**
 * Ends the user's open IDS sessions (they are sign-ins, too). The IDS module owns the table; it is written here
 * because the IDS module depends on this one (its login throttle), not the other way round.
 */
export async function revokeIdsSessions(c: Queryable, userId: string): Promise<void> {
  await c.query(
    'UPDATE ids_contexts SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL AND completed_at IS NULL',
    [userId],
  );
}
