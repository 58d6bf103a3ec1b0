import { createHash, randomBytes } from 'node:crypto';
import {
  CXML_START_PAGE_TTL_SECONDS,
  OCI_BACKGROUND_SEARCH_LIMIT,
  OCI_CUST_FIELD_MAX_LENGTHS,
  ProductOrderableStatus,
  ociCustFieldSources,
  punchoutTexts,
  type OciCustFieldSource,
  type PunchoutCredentials,
} from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { AppDeps } from '../../http/types.ts';
import { inTransaction } from '../../db/pool.ts';
import { HttpProblem, conflict, notFound, validationProblem } from '../../http/problem.ts';
import { hashPassword, verifyPassword } from '../identity/index.ts';
import { CartsService, type OfferCatalog } from '../carts/index.ts';
import { normaliseCode } from '../catalogue/index.ts';
import { IDS_CODE_TTL_SECONDS, IDS_RETURN_TTL_SECONDS } from '../ids/index.ts';
import * as repo from './punchout.repo.ts';
import { lineOf, type PunchoutLine } from './punchout-lines.ts';
import { NO_CUST_FIELDS, ociFields, punchoutFormPage, type CustFields } from './oci-return.ts';
import { orderMessage } from './cxml-build.ts';
import type { PunchOutSetupRequest } from './cxml-parse.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const custFieldsOf = (row: repo.CredentialRow): CustFields => ({
  sources: row.oci_cust_fields,
  values: row.oci_cust_field_values,
});

const hashCode = (code: string) => createHash('sha256').update(code).digest('base64url');

export interface OciEntry {
  hookUrl: string;
  target: string | null;
  okCode: string | null;
  caller: string | null;
  fn: '' | 'DETAIL' | 'VALIDATE' | 'BACKGROUND_SEARCH';
  productId: string | null;
  searchString: string | null;
  quantity: number;
  version: string;
  charset: 'UTF-8' | 'ISO-8859-1';
}

type Buyer = { userId: string; bpNumber: string; custFields: CustFields };

export class PunchoutService {
  private readonly carts: CartsService;

  constructor(
    private readonly deps: AppDeps,
    private readonly offers: OfferCatalog,
  ) {
    this.carts = new CartsService(deps.db, offers);
  }

  private get pool() {
    return this.deps.db.$client;
  }

  private dummy: Promise<string> | null = null;
  private dummyHash() {
    return (this.dummy ??= hashPassword(randomBytes(12).toString('hex')));
  }

  /** USERNAME + PASSWORD against the hashed OCI credentials; null on any mismatch or when OCI is switched off. */
  async authenticateOci(username: string, password: string): Promise<Buyer | 'disabled' | null> {
    const row = username ? await repo.findOciCredential(this.pool, username) : null;
    // Verify against a dummy hash when there is no such login, so timing does not reveal user names.
    const ok = await verifyPassword(password, row?.oci_password_hash ?? (await this.dummyHash()));
    if (!row || !ok || !password) return null;
    if (!row.oci_enabled) return 'disabled';
    return { userId: row.user_id, bpNumber: row.bp_number, custFields: custFieldsOf(row) };
  }

  /** The From credentials name the buyer; the Sender's SharedSecret proves it. */
  async authenticateCxml(request: PunchOutSetupRequest): Promise<Buyer | 'disabled' | null> {
    const secret = request.sender.find((c) => c.sharedSecret)?.sharedSecret ?? '';
    for (const from of request.from) {
      const row = await repo.findCxmlCredential(this.pool, from.domain, from.identity);
      if (!row) continue;
      if (!secret || !(await verifyPassword(secret, row.cxml_secret_hash))) return null;
      return row.cxml_enabled
        ? { userId: row.user_id, bpNumber: row.bp_number, custFields: NO_CUST_FIELDS }
        : 'disabled';
    }
    await verifyPassword(secret, await this.dummyHash());
    return null;
  }

  /** Lines for given offers (current price and availability), in the given order; unknown offers are left out. */
  private async lines(
    bpNumber: string,
    wanted: { offerId: string; quantity: number; project?: string | null; comment?: string | null }[],
  ): Promise<PunchoutLine[]> {
    const ids = [...new Set(wanted.map((w) => w.offerId))];
    const offers = await this.offers.findOffers(bpNumber, ids);
    const extras = await repo.offerExtras(this.pool, ids);
    return wanted.flatMap((w) => {
      const offer = offers.get(w.offerId);
      return offer
        ? [
            {
              ...lineOf(offer, extras.get(w.offerId), w.quantity),
              project: w.project ?? null,
              comment: w.comment ?? null,
            },
          ]
        : [];
    });
  }

  /** The orderable offers an OCI PRODUCTID names (offer id, supplier article number or GTIN). */
  async offersFor(bpNumber: string, productId: string) {
    const ids = await repo.offersForProductId(this.pool, productId.trim(), normaliseCode(productId) || productId);
    const offers = await this.offers.findOffers(bpNumber, ids);
    return ids.filter((id) => offers.get(id)?.orderableStatus === ProductOrderableStatus.Orderable);
  }

  /** VALIDATE: the current price and availability of the item, as the fields of a return (no session). */
  async validate(buyer: Buyer, e: OciEntry): Promise<string> {
    const ids = e.productId ? await this.offersFor(buyer.bpNumber, e.productId) : [];
    const lines = await this.lines(
      buyer.bpNumber,
      ids.slice(0, 1).map((offerId) => ({ offerId, quantity: e.quantity })),
    );
    return this.ociPage(e, buyer.custFields, lines);
  }

  /** BACKGROUND_SEARCH: the hits of SEARCHSTRING as the fields of a return (no session). */
  async backgroundSearch(buyer: Buyer, e: OciEntry): Promise<string> {
    const term = (e.searchString ?? '').trim();
    const ids = await repo.searchOffers(this.pool, term, normaliseCode(term) || term, OCI_BACKGROUND_SEARCH_LIMIT * 4);
    const offers = await this.offers.findOffers(buyer.bpNumber, ids);
    const orderable = ids
      .filter((id) => offers.get(id)?.orderableStatus === ProductOrderableStatus.Orderable)
      .slice(0, OCI_BACKGROUND_SEARCH_LIMIT);
    const lines = await this.lines(
      buyer.bpNumber,
      orderable.map((offerId) => ({ offerId, quantity: 1 })),
    );
    return this.ociPage(e, buyer.custFields, lines);
  }

  private ociPage(e: OciEntry, custFields: CustFields, lines: PunchoutLine[]) {
    return punchoutFormPage({
      action: e.hookUrl,
      target: e.target,
      charset: e.charset,
      fields: ociFields(lines, {
        version: e.version,
        okCode: e.okCode,
        target: e.target,
        caller: e.caller,
        custFields,
      }),
    });
  }

  /** Opens an OCI punchout session; returns where the browser goes (the SPA's /ids landing with a one-time code). */
  async openOci(buyer: Buyer, e: OciEntry): Promise<string> {
    const detail = e.fn === 'DETAIL' && e.productId ? (await this.offersFor(buyer.bpNumber, e.productId))[0] : null;
    const { contextId, code } = await inTransaction(this.deps.db, async (tx) => {
      const id = await repo.insertSession(tx.$client, {
        bpNumber: buyer.bpNumber,
        userId: buyer.userId,
        protocol: 'oci',
        version: e.version,
        hookUrl: e.hookUrl,
        target: e.target,
        searchTerm: e.searchString,
        productId: e.productId,
        charset: e.charset,
        ociFunction: e.fn || null,
        okCode: e.okCode,
        caller: e.caller,
        operation: null,
        buyerCookie: null,
        fromDomain: null,
        fromIdentity: null,
        toDomain: null,
        toIdentity: null,
      });
      await this.carts.createSessionCart(tx.$client, {
        bpNumber: buyer.bpNumber,
        userId: buyer.userId,
        contextId: id,
        readOnly: false,
      });
      const c = randomBytes(32).toString('base64url');
      await repo.insertCode(tx.$client, hashCode(c), id, IDS_CODE_TTL_SECONDS);
      return { contextId: id, code: c };
    });
    const query = new URLSearchParams({ code, contextId, action: 'oci' });
    if (detail) {
      const offer = (await this.offers.findOffers(buyer.bpNumber, [detail])).get(detail);
      if (offer?.manufacturerId && offer.manufacturerPid) {
        query.set('productId', `${offer.manufacturerId}~${offer.manufacturerPid}`);
        query.set('productInstanceId', offer.productInstanceId);
      }
    } else if (e.searchString) query.set('searchterm', e.searchString);
    return `/ids?${query}`;
  }

  /**
   * Opens a cXML punchout session (edit/inspect: with the earlier lines in its cart) in one transaction;
   * returns the one-time StartPage path.
   */
  async openCxml(buyer: Buyer, r: PunchOutSetupRequest): Promise<string> {
    const wanted = r.operation === 'create' ? [] : await this.earlierLines(buyer.bpNumber, r.items);
    const offers = await this.offers.findOffers(
      buyer.bpNumber,
      wanted.map((i) => i.offerId),
    );
    const to = r.to[0] ?? null;
    const from = r.from.find((f) => f.identity) ?? r.from[0];
    const code = randomBytes(32).toString('base64url');
    await inTransaction(this.deps.db, async (tx) => {
      const id = await repo.insertSession(tx.$client, {
        bpNumber: buyer.bpNumber,
        userId: buyer.userId,
        protocol: 'cxml',
        version: '1.2',
        hookUrl: r.browserFormPost!,
        target: null,
        searchTerm: null,
        productId: null,
        charset: 'UTF-8',
        ociFunction: null,
        okCode: null,
        caller: null,
        operation: r.operation,
        buyerCookie: r.buyerCookie,
        fromDomain: from?.domain ?? null,
        fromIdentity: from?.identity ?? null,
        toDomain: to?.domain ?? null,
        toIdentity: to?.identity ?? null,
      });
      // The session's own cart; edit and inspect re-open the earlier cart from its ItemOuts into it, and inspect's
      // cart cannot be changed.
      const cartId = await this.carts.createSessionCart(tx.$client, {
        bpNumber: buyer.bpNumber,
        userId: buyer.userId,
        contextId: id,
        readOnly: r.operation === 'inspect',
      });
      await repo.putCartLines(
        tx.$client,
        cartId,
        wanted.flatMap((i) => {
          const o = offers.get(i.offerId);
          return o
            ? [
                {
                  instanceId: o.productInstanceId,
                  supplier: o.supplierBpNumber,
                  articleNumber: o.articleNumber,
                  quantity: i.quantity,
                },
              ]
            : [];
        }),
      );
      await repo.setStartCode(tx.$client, id, hashCode(code), CXML_START_PAGE_TTL_SECONDS);
    });
    return `/punchout/start/${code}`;
  }

  /**
   * The offers of an earlier cart's ItemOuts: SupplierPartAuxiliaryID is our offer id (as the PunchOutOrderMessage
   * sent it); without a known one, the SupplierPartID (the supplier's article number) names the offer.
   */
  private async earlierLines(bpNumber: string, items: PunchOutSetupRequest['items']) {
    const wanted = items.filter((i) => i.quantity > 0);
    const known = await this.offers.findOffers(bpNumber, [
      ...new Set(wanted.flatMap((i) => (i.auxiliaryId ? [i.auxiliaryId] : []))),
    ]);
    const lines: { offerId: string; quantity: number }[] = [];
    for (const item of wanted) {
      const offerId =
        item.auxiliaryId && known.has(item.auxiliaryId)
          ? item.auxiliaryId
          : item.supplierPartId
            ? (await this.offersFor(bpNumber, item.supplierPartId))[0]
            : undefined;
      if (offerId) lines.push({ offerId, quantity: item.quantity });
    }
    return lines;
  }

  /** The StartPage, once: a fresh IDS code for the SPA's landing (the StartPage itself is used up). */
  async start(code: string): Promise<string | null> {
    const session = await repo.takeStartCode(this.pool, hashCode(code));
    if (!session) return null;
    const idsCode = randomBytes(32).toString('base64url');
    await repo.insertCode(this.pool, hashCode(idsCode), session.context_id, IDS_CODE_TTL_SECONDS);
    const query = new URLSearchParams({ code: idsCode, contextId: session.context_id, action: 'cxml' });
    if (session.operation === 'edit' || session.operation === 'inspect') query.set('open', 'cart');
    return `/ids?${query}`;
  }

  /**
   * 'In die Bestellanforderung übernehmen': the session's cart as the protocol's form page; the session ends
   * (its token is refused from now on) and the page is kept for /ids/return/{code}.
   */
  async returnCart(caller: Caller, contextId: string | null): Promise<{ html: string; returnUrl: string }> {
    // A punchout session returns its own cart; the buyer's normal session may name one of its punchout contexts
    // (as with IDS), another one's is not found.
    const id = caller.idsContextId ?? contextId;
    if (!id) throw new HttpProblem(403, punchoutTexts.ociOnly);
    if (caller.idsContextId && contextId && contextId !== caller.idsContextId) throw notFound(punchoutTexts.ociOnly);
    const session = UUID.test(id) ? await repo.findSession(this.pool, id, caller.userId) : null;
    if (!session) throw notFound(punchoutTexts.ociOnly);
    if (session.completed_at) throw conflict(punchoutTexts.alreadyReturned);
    // cXML inspect shows the earlier cart only: nothing goes back to the requisition.
    if (session.operation === 'inspect') throw conflict(punchoutTexts.inspectOnly);
    // Exactly the session's own cart goes back (a session from before the own carts: the default cart it filled).
    const cart = await this.carts.defaultCart(session.bp_number, caller.userId, session.context_id);
    const rows = await repo.cartLines(this.pool, cart.id);
    const lines = await this.lines(
      session.bp_number,
      rows.map((r) => ({
        offerId: r.product_instance_id,
        quantity: Number(r.quantity),
        project: r.project,
        comment: r.comment,
      })),
    );
    const html =
      session.protocol === 'oci'
        ? punchoutFormPage({
            action: session.hook_url,
            target: session.target,
            charset: session.charset,
            fields: ociFields(lines, {
              version: session.oci_version ?? '4.0',
              okCode: session.ok_code,
              target: session.target,
              caller: session.caller,
              custFields: session.oci_cust_fields
                ? { sources: session.oci_cust_fields, values: session.oci_cust_field_values ?? [] }
                : NO_CUST_FIELDS,
            }),
          })
        : punchoutFormPage({
            action: session.hook_url,
            target: null,
            charset: 'UTF-8',
            fields: [
              [
                'cxml-urlencoded',
                orderMessage({
                  buyerCookie: session.buyer_cookie ?? '',
                  operation: session.operation,
                  buyer: { domain: session.from_domain, identity: session.from_identity },
                  supplier: { domain: session.to_domain, identity: session.to_identity },
                  lines,
                }),
              ],
            ],
          });
    const code = randomBytes(24).toString('base64url');
    const done = await inTransaction(this.deps.db, async (tx) => {
      const locked = await repo.findSession(tx.$client, session.context_id, caller.userId, true);
      if (!locked || locked.completed_at) return false;
      await repo.completeSession(tx.$client, session.context_id, {
        html,
        codeHash: hashCode(code),
        ttlSeconds: IDS_RETURN_TTL_SECONDS,
        lines: lines.length,
      });
      return true;
    });
    if (!done) throw conflict(punchoutTexts.alreadyReturned);
    return { html, returnUrl: `/ids/return/${code}` };
  }

  async credentials(caller: Caller, bpNumber: string): Promise<PunchoutCredentials> {
    const row = await repo.credentialOf(this.pool, bpNumber, caller.userId);
    return {
      bpNumber,
      ociEnabled: row?.oci_enabled ?? false,
      ociUsername: row?.oci_username ?? null,
      ociPasswordSet: Boolean(row?.oci_password_hash),
      cxmlEnabled: row?.cxml_enabled ?? false,
      cxmlDomain: row?.cxml_domain ?? null,
      cxmlIdentity: row?.cxml_identity ?? null,
      cxmlSecretSet: Boolean(row?.cxml_secret_hash),
      ociCustFields: (row?.oci_cust_fields ?? []).map((f): OciCustFieldSource =>
        (ociCustFieldSources as readonly string[]).includes(f) ? (f as OciCustFieldSource) : '',
      ),
      ociCustFieldValues: (row?.oci_cust_fields ?? []).map((_, k) => row?.oci_cust_field_values[k] ?? ''),
    };
  }

  async saveCredentials(
    caller: Caller,
    bpNumber: string,
    body: {
      ociEnabled: boolean;
      ociUsername: string | null;
      ociPassword: string | null;
      cxmlEnabled: boolean;
      cxmlDomain: string | null;
      cxmlIdentity: string | null;
      cxmlSharedSecret: string | null;
      ociCustFields?: string[];
      ociCustFieldValues?: string[];
    },
  ): Promise<PunchoutCredentials> {
    const current = await repo.credentialOf(this.pool, bpNumber, caller.userId);
    const errors: { field: string; message: string }[] = [];
    if (body.ociEnabled && (!body.ociUsername || (!body.ociPassword && !current?.oci_password_hash)))
      errors.push({ field: 'body.ociPassword', message: 'Für OCI sind Benutzername und Passwort nötig.' });
    if (
      body.cxmlEnabled &&
      (!body.cxmlDomain || !body.cxmlIdentity || (!body.cxmlSharedSecret && !current?.cxml_secret_hash))
    )
      errors.push({
        field: 'body.cxmlSharedSecret',
        message: 'Für cXML sind Domäne, Identität und Shared Secret nötig.',
      });
    errors.push(...custFieldErrors(body.ociCustFields, body.ociCustFieldValues));
    const taken = await repo.credentialTaken(this.pool, bpNumber, caller.userId, body);
    if (taken.oci) errors.push({ field: 'body.ociUsername', message: 'Dieser Benutzername ist bereits vergeben.' });
    if (taken.cxml) errors.push({ field: 'body.cxmlIdentity', message: 'Diese cXML-Identität ist bereits vergeben.' });
    if (errors.length) throw validationProblem(errors);
    await repo.saveCredential(this.pool, bpNumber, caller.userId, {
      ociEnabled: body.ociEnabled,
      ociUsername: body.ociUsername,
      ociPasswordHash: body.ociPassword ? await hashPassword(body.ociPassword) : null,
      cxmlEnabled: body.cxmlEnabled,
      cxmlDomain: body.cxmlDomain,
      cxmlIdentity: body.cxmlIdentity,
      cxmlSecretHash: body.cxmlSharedSecret ? await hashPassword(body.cxmlSharedSecret) : null,
      ociCustFields: body.ociCustFields ?? null,
      ociCustFieldValues: body.ociCustFields
        ? body.ociCustFields.map((source, k) => (source === 'fixed' ? (body.ociCustFieldValues?.[k] ?? '').trim() : ''))
        : null,
    });
    return this.credentials(caller, bpNumber);
  }

  async sessions() {
    return (await repo.listSessions(this.pool, 200)).map((r) => ({
      contextId: r.context_id,
      protocol: r.protocol,
      operation: r.operation,
      bpNumber: r.bp_number,
      partnerName: r.partner_name,
      userEmail: r.email,
      createdAt: r.created_at.toISOString(),
      returnedAt: r.returned_at?.toISOString() ?? null,
      linesReturned: r.lines_returned,
    }));
  }
}

/**
 * OCI 5.0 customer fields: a field set to 'fixed' needs its text, within the field's OCI length; a text for a field
 * that does not send it is refused rather than silently dropped. The values are only checked with the sources.
 */
function custFieldErrors(sources: string[] | undefined, values: string[] | undefined) {
  const errors: { field: string; message: string }[] = [];
  if (!sources) return errors;
  sources.forEach((source, k) => {
    const n = k + 1;
    const value = (values?.[k] ?? '').trim();
    const field = `body.ociCustFieldValues.${k}`;
    if (source === 'fixed' && !value) errors.push({ field, message: punchoutTexts.custFieldValueMissing(n) });
    else if (source === 'fixed' && [...value].length > OCI_CUST_FIELD_MAX_LENGTHS[k])
      errors.push({ field, message: punchoutTexts.custFieldValueTooLong(n, OCI_CUST_FIELD_MAX_LENGTHS[k]) });
    else if (source !== 'fixed' && value) errors.push({ field, message: punchoutTexts.custFieldValueUnused(n) });
  });
  return errors;
}
