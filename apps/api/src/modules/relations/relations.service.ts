import {
  isStaff,
  newCustomerCountry,
  RelationStatus,
  Role,
  relationMessages,
  type CreateRelationRequest,
  type NewCustomerPartner,
  type SupplierCustomerRelation,
  type UpdateRelationRequest,
  SupplierStatus,
} from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { Db, TxDb } from '../../db/pool.ts';
import { inTransaction } from '../../db/pool.ts';
import type { MailService, OutgoingMail } from '../mail/index.ts';
import { conflict, HttpProblem, notFound, validationProblem } from '../../http/problem.ts';
import { actorOf, checkTransition } from './transitions.ts';
import {
  findRelation,
  findRelationByPair,
  findSupplierMailAddresses,
  findSupplierStatus,
  insertRelation,
  listRelations,
  listStatusChanges,
  recordStatusChange,
  reopenRelation,
  setRelationCustomerNumber,
  suppliersWithoutRelation,
  updateRelation,
  type RelationQuery,
} from './relations.repo.ts';
import { customerRequestMail, newCustomerRequestMail, statusChangedMail } from './relations.mails.ts';

/** Whether the caller may see this relation at all: a buyer its current partner's, a seller its supplier's, staff all. */
export function canSeeRelation(caller: Caller, relation: SupplierCustomerRelation, staff: boolean): boolean {
  if (staff) return true;
  if (caller.role === 1) return relation.buyer.bpNumber === caller.bpNumber;
  if (caller.role === 2) return relation.supplier.bpNumber === caller.bpNumber;
  return false;
}

/**
 * The relation as the caller gets it: the new-customer data (company data and contact person of a request without
 * customer number) go to the two parties of the relation, the buyer partner that sent them and the supplier's
 * sellers, and to staff; for anybody else they are null.
 */
export function relationShownTo(caller: Caller, relation: SupplierCustomerRelation): SupplierCustomerRelation {
  const entitled =
    isStaff(caller.role) ||
    (caller.role === Role.Seller && relation.supplier.bpNumber === caller.bpNumber) ||
    (caller.role === Role.Buyer && relation.buyer.bpNumber === caller.bpNumber);
  if (entitled || (!relation.newCustomerPartner && !relation.newCustomerContact)) return relation;
  return { ...relation, newCustomerPartner: null, newCustomerContact: null };
}

function rejectVerdict(reason: 'not-allowed' | 'reason-required' | 'customer-number-required'): never {
  if (reason === 'reason-required')
    throw validationProblem(
      [{ field: 'body.comments', message: relationMessages.reasonRequired }],
      relationMessages.reasonRequired,
    );
  if (reason === 'customer-number-required')
    throw validationProblem(
      [{ field: 'body.supplierCustomerNumber', message: relationMessages.customerNumberRequired }],
      relationMessages.customerNumberRequired,
    );
  throw conflict(relationMessages.transitionNotAllowed);
}

async function supplierMailAddresses(tx: TxDb, supplierBpNumber: string) {
  const r = await findSupplierMailAddresses(tx.$client, supplierBpNumber);
  return {
    customer: r?.customer_onboarding_email ?? r?.email ?? null,
    newCustomer: r?.new_customer_onboarding_email ?? r?.email ?? null,
  };
}

export class RelationsService {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
  ) {}

  list(query: RelationQuery) {
    return listRelations(this.db, query);
  }

  /** One relation; a missing one or one the caller may not see is a 404. */
  async find(id: number, visible: (relation: SupplierCustomerRelation) => boolean = () => true) {
    const relation = await findRelation(this.db, id);
    if (!relation || !visible(relation)) throw notFound('Geschäftsbeziehung nicht gefunden');
    return relation;
  }

  /** The status history of a relation (404 for an unknown relation). */
  async statusChanges(id: number) {
    await this.find(id);
    return listStatusChanges(this.db, id);
  }

  /** Suppliers the buyer can still ask for a relation. */
  suppliersWithoutRelation(buyerBpNumber: string) {
    return suppliersWithoutRelation(this.db, buyerBpNumber);
  }

  /** A buyer asks a supplier for order authorisation (new, or again after a rejection). */
  async request(caller: Caller, buyerBpNumber: string, body: CreateRelationRequest): Promise<SupplierCustomerRelation> {
    const relation = await inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      const supplierStatus = await findSupplierStatus(c, body.supplierBpNumber);
      if (supplierStatus === null || supplierStatus === SupplierStatus.NonActive) {
        throw new HttpProblem(404, relationMessages.supplierNotAvailable, {
          detail: `Lieferant ${body.supplierBpNumber}`,
        });
      }
      const number = body.supplierCustomerNumber?.trim() || null;
      const target = number ? RelationStatus.AwaitingConfirmation : RelationStatus.CustomerIdRequested;
      const contact = {
        name: body.contactName ?? null,
        email: body.contactEmail ?? null,
        phone: body.contactPhone || null,
        message: body.message || null,
        // Empty optional fields are kept as null.
        partner: body.newCustomerPartner && !number ? withoutEmptyFields(body.newCustomerPartner) : null,
      };
      const existing = await findRelationByPair(c, buyerBpNumber, body.supplierBpNumber, true);
      let id: number;
      if (existing) {
        const verdict = checkTransition({
          actor: 'buyer',
          from: existing.relationStatusId,
          to: target,
          customerNumber: number,
        });
        if (!verdict.ok) throw conflict(relationMessages.relationExists, `Status ${existing.relationStatusId}`);
        await reopenRelation(c, existing.id, target, number, contact);
        await recordStatusChange(c, existing.id, caller.userId, existing.relationStatusId, target, null);
        id = existing.id;
      } else {
        id = await insertRelation(c, {
          supplierBpNumber: body.supplierBpNumber,
          buyerBpNumber,
          status: target,
          customerNumber: number,
          contact,
        });
        await recordStatusChange(c, id, caller.userId, null, target, null);
      }
      const relation = (await findRelation(c, id))!;
      const addresses = await supplierMailAddresses(tx, body.supplierBpNumber);
      const outgoing: OutgoingMail[] = [];
      if (number && addresses.customer) outgoing.push(customerRequestMail(addresses.customer, relation));
      if (!number && addresses.newCustomer)
        outgoing.push(
          newCustomerRequestMail(
            addresses.newCustomer,
            relation,
            {
              name: contact.name!,
              email: contact.email!,
              phone: contact.phone,
              message: contact.message,
              partner: contact.partner,
            },
            caller.email,
          ),
        );
      const mails: number[] = [];
      for (const m of outgoing) mails.push(await this.mail.enqueue(m, c));
      tx.afterCommit(() => this.mail.dispatch(mails));
      return relation;
    });
    return relation;
  }

  /** Status change (and comments / customer number) by seller, buyer or administrator. */
  async update(
    caller: Caller,
    id: number,
    body: UpdateRelationRequest,
    visible: (r: SupplierCustomerRelation) => boolean,
  ): Promise<SupplierCustomerRelation> {
    const relation = await inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      const current = await findRelation(c, id, true);
      if (!current || !visible(current)) throw notFound('Geschäftsbeziehung nicht gefunden');
      const actor = actorOf(caller.role);
      if (!actor) throw conflict(relationMessages.transitionNotAllowed);
      const number = body.supplierCustomerNumber?.trim() || null;
      const statusChanges = body.relationStatusId !== current.relationStatusId;
      if (statusChanges) {
        const verdict = checkTransition({
          actor,
          from: current.relationStatusId,
          to: body.relationStatusId,
          comments: body.comments,
          customerNumber: number ?? current.supplierCustomerNumber,
        });
        if (!verdict.ok) rejectVerdict(verdict.reason);
      } else {
        // Same status: only the seller edits customer number and comments; only the administrator toggles activity.
        const editsAllowed =
          actor === 'seller' &&
          current.relationStatusId !== RelationStatus.Blocked &&
          current.relationStatusId !== RelationStatus.Invalid;
        if (!editsAllowed && !(actor === 'administrator' && body.isActive !== undefined))
          throw conflict(relationMessages.transitionNotAllowed);
      }
      if (body.isActive !== undefined && body.isActive !== current.isActive && actor !== 'administrator')
        throw conflict(relationMessages.transitionNotAllowed);
      await updateRelation(c, id, {
        status: body.relationStatusId,
        comments: body.comments === undefined ? undefined : body.comments?.trim() || null,
        customerNumber: actor === 'buyer' && !statusChanges ? null : number,
        isActive: body.isActive ?? null,
      });
      if (statusChanges)
        await recordStatusChange(
          c,
          id,
          caller.userId,
          current.relationStatusId,
          body.relationStatusId,
          body.comments?.trim() || null,
        );
      const relation = (await findRelation(c, id))!;
      const mails: number[] = [];
      if (statusChanges) {
        if (actor === 'buyer') {
          const addresses = await supplierMailAddresses(tx, relation.supplier.bpNumber);
          const to =
            body.relationStatusId === RelationStatus.AwaitingConfirmation ? addresses.customer : addresses.newCustomer;
          const contact = { name: `${caller.firstName} ${caller.lastName}`.trim(), email: caller.email };
          if (to)
            mails.push(
              await this.mail.enqueue(
                body.relationStatusId === RelationStatus.AwaitingConfirmation
                  ? customerRequestMail(to, relation)
                  : newCustomerRequestMail(to, relation, contact, caller.email),
                c,
              ),
            );
        } else if (relation.buyer.email) {
          mails.push(await this.mail.enqueue(statusChangedMail(relation.buyer.email, relation), c));
        }
      }
      tx.afterCommit(() => this.mail.dispatch(mails));
      return relation;
    });
    return relation;
  }

  /**
   * Customer number: the buyer answers a CustomerIdRequested relation (→ AwaitingConfirmation);
   * the seller corrects the number of its customer (status unchanged).
   */
  async setCustomerNumber(
    caller: Caller,
    id: number,
    customerNumber: string,
    visible: (r: SupplierCustomerRelation) => boolean,
  ): Promise<SupplierCustomerRelation> {
    const relation = await inTransaction(this.db, async (tx) => {
      const c = tx.$client;
      const current = await findRelation(c, id, true);
      if (!current || !visible(current)) throw notFound('Geschäftsbeziehung nicht gefunden');
      const actor = actorOf(caller.role);
      let next = current.relationStatusId;
      if (actor === 'buyer') {
        if (current.relationStatusId !== RelationStatus.CustomerIdRequested)
          throw conflict(relationMessages.transitionNotAllowed);
        next = RelationStatus.AwaitingConfirmation;
      } else if (
        actor !== 'seller' ||
        current.relationStatusId === RelationStatus.Blocked ||
        current.relationStatusId === RelationStatus.Invalid
      ) {
        throw conflict(relationMessages.transitionNotAllowed);
      }
      await setRelationCustomerNumber(c, id, customerNumber, next);
      if (next !== current.relationStatusId)
        await recordStatusChange(c, id, caller.userId, current.relationStatusId, next, null);
      const relation = (await findRelation(c, id))!;
      const mails: number[] = [];
      if (actor === 'buyer') {
        const { customer } = await supplierMailAddresses(tx, relation.supplier.bpNumber);
        if (customer) mails.push(await this.mail.enqueue(customerRequestMail(customer, relation), c));
      }
      tx.afterCommit(() => this.mail.dispatch(mails));
      return relation;
    });
    return relation;
  }
}

/** The company data with empty optional fields as null, and their country. */
function withoutEmptyFields(partner: NewCustomerPartner): NewCustomerPartner {
  const fields = Object.fromEntries(Object.entries(partner).map(([k, v]) => [k, v === '' ? null : v]));
  return { ...fields, country: newCustomerCountry } as NewCustomerPartner;
}
