import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  passwordMails,
  passwordRules,
  passwordTexts,
  Role,
  type ChangePasswordBody,
  type InviteUserBody,
  type UserInvitation,
} from '@shk/contracts';
import { inTransaction, type TxDb } from '../../db/pool.ts';
import type { AppDeps } from '../../http/types.ts';
import type { Caller } from '../../http/caller.ts';
import { conflict, HttpProblem, validationProblem } from '../../http/problem.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { passwordProblem } from './password-policy.ts';
import { recordRevokedGrant } from './identity.repo.ts';
import { recordFailure, secondsBlocked, type DelayPolicy } from './login-throttle.repo.ts';
import * as repo from './password-links.repo.ts';
import { LoginThrottle } from './login-throttle.ts';

/** Where a set-password link leads (the provider's page, password-pages.routes.ts). */
export const PASSWORD_LINK_PATH = '/auth/passwort';

/** Reset requests are handled by a job: known and unknown addresses cost the request the same work. */
export const RESET_REQUEST_QUEUE = 'identity.password-reset-request';

/**
 * "Passwort vergessen?" requests per requested address (known or not: no enumeration) and per client address, in
 * sign_in_failures like the failed sign-ins: three links an hour per address, then 15, 30, 60 minutes of waiting;
 * twenty requests an hour per client address, then a growing delay.
 */
export const RESET_ACCOUNT_POLICY: DelayPolicy = {
  free: 2,
  baseSeconds: 15 * 60,
  maxSeconds: 60 * 60,
  forgetSeconds: 60 * 60,
};
export const RESET_ADDRESS_POLICY: DelayPolicy = {
  free: 20,
  baseSeconds: 60,
  maxSeconds: 60 * 60,
  forgetSeconds: 60 * 60,
};

export class LinkInvalid extends Error {
  constructor() {
    super(passwordTexts.linkInvalid);
  }
}

/** A new password the rules refuse: the German reason for the form. */
export class PasswordRefused extends Error {}

const hashOf = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/** Who may invite which role: administrators and platform operators everyone, support only buyers and sellers. */
function mayInvite(inviter: Role, role: Role): boolean {
  if (inviter === Role.Administrator || inviter === Role.PlatformOperator) return true;
  return inviter === Role.Support && (role === Role.Buyer || role === Role.Seller);
}

/**
 * Passwords of the embedded identity provider: one-time set-password links (reset and invitation), changing the
 * password on the profile, and ending the other sign-ins when a password changes.
 */
export class PasswordService {
  private readonly changeThrottle: LoginThrottle;
  private linksWritten = 0;

  constructor(
    private readonly deps: Pick<AppDeps, 'db' | 'pool' | 'mail' | 'jobs' | 'config'>,
    /** Called after commit for every grant a new password ended (this process's caller cache forgets it at once). */
    private readonly onGrantRevoked: (grantId: string) => void = () => undefined,
  ) {
    // Wrong current passwords on the profile count like failed sign-ins (their own scope).
    this.changeThrottle = new LoginThrottle(deps.pool, 'password-change');
  }

  /** The reset requests' worker (registered by the embedded provider's mount, before the job queue starts). */
  registerJobs() {
    this.deps.jobs.register<{ email: string }>(RESET_REQUEST_QUEUE, ({ email }) => this.sendResetLink(email));
  }

  /**
   * Seconds the requester has to wait, or 0 after the request was counted and queued. Known and unknown addresses
   * take the same path: count, queue a job; the job looks the account up and writes link and mail.
   */
  async requestReset(email: string, clientAddress: string): Promise<number> {
    const address = email.trim().toLowerCase();
    const keys = [`reset:account:${address}`, `reset:address:${clientAddress}`];
    const seconds = await secondsBlocked(this.deps.pool, keys);
    if (seconds > 0) return seconds;
    await recordFailure(this.deps.pool, keys[0], RESET_ACCOUNT_POLICY);
    await recordFailure(this.deps.pool, keys[1], RESET_ADDRESS_POLICY);
    await this.deps.jobs.send(RESET_REQUEST_QUEUE, { email: address }, { retryLimit: 3 });
    return 0;
  }

  /** The job: a link and its mail in one transaction, for a known account only. */
  async sendResetLink(email: string): Promise<void> {
    const user = await repo.findUserByEmail(this.deps.pool, email);
    if (!user) return;
    const mailId = await inTransaction(this.deps.db, async (tx) => {
      const { token } = await this.newLink(tx, user.id, 'reset', passwordRules.resetLinkMinutes * 60, null);
      const name = `${user.first_name} ${user.last_name}`;
      return this.deps.mail.enqueue({ to: user.email, ...passwordMails.reset(name, this.linkUrl(token)) }, tx.$client);
    });
    await this.deps.mail.dispatch([mailId]);
  }

  /** What the set-password page shows for a token: its purpose and account, or LinkInvalid. */
  async openLink(token: string): Promise<{ purpose: repo.LinkPurpose; email: string }> {
    const link = await repo.findLink(this.deps.pool, hashOf(token));
    if (!link?.usable) throw new LinkInvalid();
    return { purpose: link.purpose, email: link.email };
  }

  /**
   * Sets the password through a link: checks the rules, uses the link up (once: a parallel second use fails), ends
   * every open link and every sign-in of the account and tells the owner by mail (a reset; an invitation is the
   * first password).
   */
  async setPasswordWithLink(token: string, password: string): Promise<void> {
    const link = await repo.findLink(this.deps.pool, hashOf(token));
    if (!link?.usable) throw new LinkInvalid();
    const problem = passwordProblem(password, link.email);
    if (problem) throw new PasswordRefused(problem);
    // scrypt before the transaction: no connection waits for it.
    const hash = await hashPassword(password);
    const { mailId, grants } = await inTransaction(this.deps.db, async (tx) => {
      const claimed = await repo.claimLink(tx.$client, hashOf(token));
      if (!claimed) throw new LinkInvalid();
      await repo.setPasswordHash(tx.$client, claimed.user_id, hash);
      const grants = await this.endSignIns(tx, claimed.user_id, null);
      const mailId =
        link.purpose === 'reset'
          ? await this.deps.mail.enqueue(
              { to: link.email, ...passwordMails.changed(`${link.first_name} ${link.last_name}`) },
              tx.$client,
            )
          : null;
      return { mailId, grants };
    });
    this.afterPasswordChange(grants, mailId);
  }

  /**
   * The profile's "Passwort ändern": the current password (wrong ones count like failed sign-ins), the rules, then
   * the new hash; every other sign-in of the user ends, the one of `keepGrantId` stays.
   */
  async changePassword(
    caller: Caller,
    body: ChangePasswordBody,
    keepGrantId: string | null,
    clientAddress: string,
  ): Promise<void> {
    const user = await repo.findUserById(this.deps.pool, caller.userId);
    if (!user?.password_hash) throw conflict(passwordTexts.noLocalPassword);
    await this.changeThrottle.check(user.email, clientAddress);
    if (!(await verifyPassword(body.currentPassword, user.password_hash))) {
      await this.changeThrottle.failed(user.email, clientAddress);
      throw validationProblem([{ field: 'body.currentPassword', message: passwordTexts.currentWrong }]);
    }
    await this.changeThrottle.succeeded(user.email, clientAddress);
    const problem = passwordProblem(body.newPassword, user.email);
    if (problem) throw validationProblem([{ field: 'body.newPassword', message: problem }]);
    const hash = await hashPassword(body.newPassword);
    const { mailId, grants } = await inTransaction(this.deps.db, async (tx) => {
      await repo.setPasswordHash(tx.$client, user.id, hash);
      const grants = await this.endSignIns(tx, user.id, keepGrantId);
      const mailId = await this.deps.mail.enqueue(
        { to: user.email, ...passwordMails.changed(`${user.first_name} ${user.last_name}`) },
        tx.$client,
      );
      return { mailId, grants };
    });
    this.afterPasswordChange(grants, mailId);
  }

  /**
   * Staff invite a person: a user without a password (role and partners as given) and a set-password link valid
   * seven days, mailed through the outbox in the same transaction. Inviting an address again whose user has not
   * set a password yet sends a fresh link (the older one stays valid until it expires or a password is set).
   */
  async invite(inviter: Caller, body: InviteUserBody): Promise<UserInvitation> {
    if (!mayInvite(inviter.role, body.role)) throw new HttpProblem(403, passwordTexts.roleNotAllowed);
    const partners = [...new Set(body.businessPartnerNumbers)];
    const needsPartner = body.role === Role.Buyer || body.role === Role.Seller;
    if (needsPartner && !partners.length) {
      throw validationProblem([{ field: 'body.businessPartnerNumbers', message: passwordTexts.partnerRequired }]);
    }
    if (!needsPartner && partners.length) {
      throw validationProblem([{ field: 'body.businessPartnerNumbers', message: passwordTexts.partnerForbidden }]);
    }
    const known = new Map(
      (await repo.existingPartners(this.deps.pool, partners)).map((p) => [p.bp_number, p.is_supplier]),
    );
    const partnerError = (number: string) => {
      if (!known.has(number)) return passwordTexts.partnerUnknown(number);
      // A seller works for a supplier, a buyer for a customer company.
      if (body.role === Role.Seller && !known.get(number)) return passwordTexts.partnerNotSupplier(number);
      if (body.role === Role.Buyer && known.get(number)) return passwordTexts.partnerIsSupplier(number);
      return null;
    };
    const wrong = partners.map(partnerError).find(Boolean);
    if (wrong) throw validationProblem([{ field: 'body.businessPartnerNumbers', message: wrong }]);
    const existing = await repo.findUserByEmail(this.deps.pool, body.email);
    if (existing && (existing.password_hash || existing.external_subject)) throw conflict(passwordTexts.emailTaken);
    const invitedBy = `${inviter.firstName} ${inviter.lastName}`.trim() || 'Das Team des SHK-Bestellportals';
    const { userId, email, expiresAt, mailId } = await inTransaction(this.deps.db, async (tx) => {
      const userId = existing?.id ?? randomUUID();
      if (!existing) {
        await repo.insertInvitedUser(tx.$client, {
          id: userId,
          email: body.email,
          firstName: body.firstName,
          lastName: body.lastName,
          role: body.role,
          partners,
        });
      }
      const validSeconds = passwordRules.invitationLinkDays * 24 * 60 * 60;
      const { token, expiresAt } = await this.newLink(tx, userId, 'invitation', validSeconds, inviter.userId);
      const email = existing?.email ?? body.email;
      const name = existing ? `${existing.first_name} ${existing.last_name}` : `${body.firstName} ${body.lastName}`;
      const mailId = await this.deps.mail.enqueue(
        { to: email, ...passwordMails.invitation(name, invitedBy, this.linkUrl(token)) },
        tx.$client,
      );
      return { userId, email, expiresAt, mailId };
    });
    await this.deps.mail.dispatch([mailId]);
    return { userId, email, expiresAt: expiresAt.toISOString() };
  }

  private linkUrl(token: string) {
    return `${this.deps.config.publicUrl}${PASSWORD_LINK_PATH}/${token}`;
  }

  private async newLink(
    tx: TxDb,
    userId: string,
    purpose: repo.LinkPurpose,
    validSeconds: number,
    createdBy: string | null,
  ): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const tokenHash = hashOf(token);
    const expiresAt = await repo.insertLink(tx.$client, { tokenHash, userId, purpose, validSeconds, createdBy });
    if (++this.linksWritten % 500 === 0) await repo.dropOldLinks(tx.$client);
    return { token, expiresAt };
  }

  /** Ends the user's sign-ins but the one of `keepGrantId`: grants (refresh tokens; access tokens are refused by their grant), provider sessions, IDS sessions. */
  private async endSignIns(tx: TxDb, userId: string, keepGrantId: string | null): Promise<string[]> {
    const grants = await repo.otherGrantsOf(tx.$client, userId, keepGrantId);
    for (const grantId of grants) {
      await repo.deleteGrant(tx.$client, grantId);
      await recordRevokedGrant(tx.$client, grantId);
    }
    await repo.deleteOtherSessions(tx.$client, userId, keepGrantId);
    await repo.revokeIdsSessions(tx.$client, userId);
    return grants;
  }

  private afterPasswordChange(grants: string[], mailId: number | null) {
    for (const grantId of grants) this.onGrantRevoked(grantId);
    if (mailId !== null) void this.deps.mail.dispatch([mailId]).catch(() => undefined); // the sweeper retries
  }
}
