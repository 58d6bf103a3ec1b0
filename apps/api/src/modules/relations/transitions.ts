import { RelationStatus, Role } from '@shk/contracts';

export type Actor = 'buyer' | 'seller' | 'administrator';

export interface TransitionRequest {
  actor: Actor;
  from: RelationStatus;
  to: RelationStatus;
  comments?: string | null;
  /** Customer number after the change (the new one if given, else the stored one). */
  customerNumber?: string | null;
}

export type TransitionVerdict =
  { ok: true } | { ok: false; reason: 'not-allowed' | 'reason-required' | 'customer-number-required' };

/**
 * Who may move a relation from which status to which (seller-staff-side.md §2 and §4):
 * - seller: confirms (→ Approved, needs a customer number) or rejects (→ Rejected, reason required) a waiting,
 *   rejected or customer-id-requested relation; removes an approved customer (→ Rejected, reason required).
 * - buyer: requests again after a rejection (→ AwaitingConfirmation with a number, or CustomerIdRequested).
 * - administrator: blocks or invalidates any relation, and lifts a block or invalidation (→ AwaitingConfirmation).
 * Keeping the status while changing other fields is not a transition and is checked elsewhere.
 */
export function checkTransition(request: TransitionRequest): TransitionVerdict {
  const { actor, from, to } = request;
  const S = RelationStatus;
  const allowed: Record<Actor, Array<[RelationStatus, RelationStatus]>> = {
    seller: [
      [S.AwaitingConfirmation, S.Approved],
      [S.AwaitingConfirmation, S.Rejected],
      [S.Rejected, S.Approved],
      [S.CustomerIdRequested, S.Approved],
      [S.CustomerIdRequested, S.Rejected],
      [S.Approved, S.Rejected],
    ],
    buyer: [
      [S.Rejected, S.AwaitingConfirmation],
      [S.Rejected, S.CustomerIdRequested],
    ],
    administrator: [
      ...([S.Approved, S.AwaitingConfirmation, S.Rejected, S.CustomerIdRequested, S.Invalid] as RelationStatus[]).map(
        (f) => [f, S.Blocked] as [RelationStatus, RelationStatus],
      ),
      ...([S.Approved, S.AwaitingConfirmation, S.Rejected, S.CustomerIdRequested, S.Blocked] as RelationStatus[]).map(
        (f) => [f, S.Invalid] as [RelationStatus, RelationStatus],
      ),
      [S.Blocked, S.AwaitingConfirmation],
      [S.Invalid, S.AwaitingConfirmation],
    ],
  };
  if (!allowed[actor].some(([f, t]) => f === from && t === to)) return { ok: false, reason: 'not-allowed' };
  // Rejecting a request and removing an approved customer ('Kunden entfernen') both need a reason: the buyer sees
  // it as the tooltip of 'Neu anfragen' (buyer-side.md, My suppliers).
  if (actor === 'seller' && to === S.Rejected && !request.comments?.trim())
    return { ok: false, reason: 'reason-required' };
  if ((to === S.Approved || (actor === 'buyer' && to === S.AwaitingConfirmation)) && !request.customerNumber?.trim()) {
    return { ok: false, reason: 'customer-number-required' };
  }
  return { ok: true };
}

export function actorOf(role: Role): Actor | null {
  if (role === Role.Buyer) return 'buyer';
  if (role === Role.Seller) return 'seller';
  if (role === Role.Administrator) return 'administrator';
  return null;
}
