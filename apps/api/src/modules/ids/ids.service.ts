import { createHash, randomBytes } from 'node:crypto';
import {
  IDS_SESSION_LIFETIME_SECONDS,
  IdsMatchResult,
  ProductOrderableStatus,
  idsMessages,
  type IdsCart,
  type IdsVersion,
} from '@shk/contracts';
import type { Caller } from '../../http/auth.ts';
import type { AppDeps } from '../../http/types.ts';
import { inTransaction } from '../../db/pool.ts';
import { HttpProblem, conflict, notFound, validationProblem } from '../../http/problem.ts';
import { hashPassword, verifyPassword } from '../identity/index.ts';
import { lineTotal, type OfferCatalog, type OfferSnapshot, CartsService } from '../carts/index.ts';
import { CheckoutService } from '../orders/index.ts';
import { normaliseCode } from '../catalogue/index.ts';
import * as repo from './ids.repo.ts';
import { parseReceivedCart } from './ids-cart-parse.ts';
import { buildReturnCart, type ReturnPosition } from './ids-cart-build.ts';
import { autoMatch, itemView, matchResultOf, quantityFits } from './ids-match.ts';
import { idsTokenIssuer } from './ids-token.ts';
import { returnFormPage } from './return-form.ts';
import type { IdsFields } from './ids-fields.ts';

/** A one-time code is valid for 60 seconds. */
export const IDS_CODE_TTL_SECONDS = 60;
/** The return page must be opened right after complete/Send. */
export const IDS_RETURN_TTL_SECONDS = 5 * 60;

const hashCode = (code: string) => createHash('sha256').update(code).digest('base64url');

/** The answer's version: 2.1–2.3 carts have the 2.0 structure and get a 2.0 answer (docs/ids.md). */
export function answerVersion(version: string): IdsVersion {
  if (version === '2.5' || version === '2.5.1') return version;
  return '2.0';
}

const errorTexts: Record<string, string> = {
  [IdsMatchResult.NotMatched]: 'Artikel im Katalog nicht gefunden',
  [IdsMatchResult.SupplierRelationshipNotMatched]: 'Keine Geschäftsbeziehung zu einem Lieferanten dieses Artikels',
  [IdsMatchResult.SupplierNotMatched]: 'Kein Lieferant ausgewählt',
  [IdsMatchResult.QuantityNotMatched]: 'Menge passt nicht zur Mindestbestellmenge',
};

export class IdsService {
  private readonly carts: CartsService;
  private readonly checkoutService: CheckoutService;
  private readonly mintTokens: ReturnType<typeof idsTokenIssuer>;

  constructor(
    private readonly deps: AppDeps,
    private readonly offers: OfferCatalog,
  ) {
    this.carts = new CartsService(deps.db, offers);
    this.checkoutService = new CheckoutService(deps, offers, this.carts);
    this.mintTokens = idsTokenIssuer(deps.config, deps.pool);
  }

  private get pool() {
    return this.deps.db.$client;
  }

  /** kndnr + name_kunde + pw_kunde against the hashed IDS credentials; null on any mismatch. */
  async authenticate(fields: IdsFields): Promise<{ userId: string; bpNumber: string } | null> {
    const { kndnr, name_kunde: login, pw_kunde: password } = fields;
    if (!kndnr || !login || !password) return null;
    const row = await repo.findCredential(this.pool, kndnr, login);
    // Verify against a dummy hash when there is no such login, so timing does not reveal logins.
    const ok = await verifyPassword(password, row?.password_hash ?? (await this.dummyHash()));
    return row && ok ? { userId: row.user_id, bpNumber: kndnr } : null;
  }

  private dummy: Promise<string> | null = null;
  private dummyHash() {
    return (this.dummy ??= hashPassword(randomBytes(12).toString('hex')));
  }

  /** Stores the call's context (and, for wks, the received cart matched against the offers); returns its id. */
  async createContext(
    user: { userId: string; bpNumber: string },
    action: string,
    version: string,
    fields: IdsFields,
  ): Promise<{ contextId: string; itemsCount: number }> {
    const cart = action === 'wks' && fields.warenkorb ? await parseReceivedCart(fields.warenkorb) : null;
    const positions = cart?.positions ?? [];
    const candidates = await repo.candidateOffersMany(
      this.pool,
      positions.map((p) =>
        p.readable
          ? {
              articleNorm: p.articleNumber ? normaliseCode(p.articleNumber) || null : null,
              gtin: p.gtin,
              manufacturer: p.manufacturerId,
              manufacturerPidNorm: p.manufacturerPid ? normaliseCode(p.manufacturerPid) || null : null,
            }
          : { articleNorm: null, gtin: null, manufacturer: null, manufacturerPidNorm: null },
      ),
    );
    const offers = await this.offers.findOffers(user.bpNumber, [...new Set(candidates.flat())]);
    const contextId = await inTransaction(this.deps.db, async (tx) => {
      const c = tx.$client;
      const id = await repo.insertContext(c, {
        bpNumber: user.bpNumber,
        userId: user.userId,
        action,
        version,
        hookUrl: fields.hookurl ?? null,
        target: fields.target ?? null,
        searchTerm: fields.searchterm ?? null,
        ghNumber: fields.ghnummer ?? fields.artikelnr ?? null,
        cartXml: fields.warenkorb ?? null,
        cartHeader: cart?.orderInfo ?? null,
      });
      await repo.insertItems(
        c,
        id,
        positions.map((p, i) => {
          const chosen = autoMatch(candidates[i], offers);
          return {
            position_no: i + 1,
            article_number: p.articleNumber,
            gtin: p.gtin,
            manufacturer_id: p.manufacturerId,
            manufacturer_pid: p.manufacturerPid,
            short_name: p.shortName,
            quantity: p.quantity,
            unit: p.unit,
            raw_text: p.rawText,
            reference: p.reference,
            candidate_instance_ids: candidates[i],
            matched_product_instance_id: chosen?.productInstanceId ?? null,
            matched_supplier_bp_number: chosen?.supplierBpNumber ?? null,
            matched_article_number: chosen?.articleNumber ?? null,
            matched_quantity: chosen ? p.quantity : null,
          };
        }),
      );
      return id;
    });
    return { contextId, itemsCount: positions.length };
  }

  /** adl: the offer of a wholesaler article number (an orderable one first) for /produkt. */
  async deepLinkTarget(bpNumber: string, ghNumber: string | null) {
    const norm = ghNumber ? normaliseCode(ghNumber) : '';
    if (!norm) return null;
    const ids = await repo.candidateOffers(this.pool, {
      articleNorm: norm,
      gtin: null,
      manufacturer: null,
      manufacturerPidNorm: null,
    });
    const offers = [...(await this.offers.findOffers(bpNumber, ids)).values()];
    const offer = offers.find((o) => o.orderableStatus === ProductOrderableStatus.Orderable) ?? offers[0];
    if (!offer || !offer.manufacturerId || !offer.manufacturerPid) return null;
    return {
      productId: `${offer.manufacturerId}~${offer.manufacturerPid}`,
      productInstanceId: offer.productInstanceId,
      articleNumber: offer.articleNumber,
    };
  }

  async issueCode(contextId: string): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await repo.insertCode(this.pool, hashCode(code), contextId, IDS_CODE_TTL_SECONDS);
    return code;
  }

  /** One-time code → tokens of an IDS session; a used or expired code is refused. */
  async exchange(code: string) {
    const contextId = await repo.consumeCode(this.pool, hashCode(code));
    if (!contextId) throw new HttpProblem(401, 'Nicht angemeldet', { detail: idsMessages.codeInvalid });
    const ctx = await repo.findContextUser(this.pool, contextId);
    // The IDS session works for the partner the program logged in with (its context's, read per request), and
    // leaves the partner of the user's normal session alone.
    await repo.startSession(this.pool, contextId, IDS_SESSION_LIFETIME_SECONDS);
    const tokens = await this.mintTokens(
      { id: ctx.user_id, email: ctx.email, name: `${ctx.first_name} ${ctx.last_name}`.trim() },
      contextId,
    );
    return {
      accessToken: tokens.accessToken,
      identityToken: tokens.identityToken,
      refreshToken: null,
      tokenType: 'Bearer',
      scope: tokens.scope,
      sessionState: null,
      expiresIn: tokens.expiresIn,
      idsContextId: contextId,
      action: ctx.action,
    };
  }

  /** Signs an IDS session out (its token is refused from now on); a normal session has none to end. */
  async logout(caller: Caller) {
    if (caller.idsContextId) await repo.revokeSession(this.pool, caller.idsContextId, caller.userId);
  }

  /** The caller's context; an IDS session reaches only its own. */
  private async context(caller: Caller, contextId: string) {
    if (caller.idsContextId && caller.idsContextId !== contextId) throw notFound(idsMessages.contextNotFound);
    const ctx = await repo.findContext(this.pool, contextId, caller.userId);
    if (!ctx) throw notFound(idsMessages.contextNotFound);
    return ctx;
  }

  private async itemOffers(bpNumber: string, rows: repo.IdsItemRow[]) {
    const ids = new Set<string>();
    for (const r of rows) {
      r.candidate_instance_ids.forEach((id) => ids.add(id));
      if (r.matched_product_instance_id) ids.add(r.matched_product_instance_id);
    }
    return this.offers.findOffers(bpNumber, [...ids]);
  }

  async cart(caller: Caller, contextId: string): Promise<IdsCart> {
    const ctx = await this.context(caller, contextId);
    const rows = await repo.contextItems(this.pool, ctx.id);
    const offers = await this.itemOffers(ctx.bp_number, rows);
    return {
      idsContextId: ctx.id,
      action: ctx.action,
      version: ctx.version,
      movedToCart: ctx.moved_to_cart,
      completed: ctx.completed_at != null,
      readOnly: (await this.carts.sessionCart(ctx.id))?.readOnly ?? false,
      items: rows.map((r) => itemView(r, offers)),
    };
  }

  async updateItem(
    caller: Caller,
    itemId: number,
    body: { matchedProductInstanceId: string; matchedQuantity: number },
  ) {
    const row = await repo.findItemOfUser(this.pool, itemId, caller.userId);
    if (!row || (caller.idsContextId && caller.idsContextId !== row.context_id)) {
      throw notFound(idsMessages.itemNotFound);
    }
    const ctx = await this.context(caller, row.context_id);
    const offer = (await this.offers.findOffers(ctx.bp_number, [body.matchedProductInstanceId])).get(
      body.matchedProductInstanceId,
    );
    if (!offer) {
      throw validationProblem([{ field: 'body.matchedProductInstanceId', message: 'Artikel nicht gefunden' }]);
    }
    if (offer.orderableStatus !== ProductOrderableStatus.Orderable) {
      throw validationProblem([{ field: 'body.matchedProductInstanceId', message: idsMessages.offerNotOrderable }]);
    }
    await repo.updateItemMatch(this.pool, itemId, {
      instanceId: offer.productInstanceId,
      supplier: offer.supplierBpNumber,
      articleNumber: offer.articleNumber,
      quantity: body.matchedQuantity,
    });
    const updated = (await repo.contextItems(this.pool, ctx.id)).find((r) => Number(r.id) === itemId)!;
    return itemView(updated, await this.itemOffers(ctx.bp_number, [updated]));
  }

  async deleteItem(caller: Caller, itemId: number) {
    const row = await repo.findItemOfUser(this.pool, itemId, caller.userId);
    if (!row || (caller.idsContextId && caller.idsContextId !== row.context_id)) {
      throw notFound(idsMessages.itemNotFound);
    }
    await repo.deleteItem(this.pool, itemId);
  }

  async deleteAll(caller: Caller, contextId: string) {
    const ctx = await this.context(caller, contextId);
    await repo.deleteAllItems(this.pool, ctx.id);
  }

  /**
   * Step 2: matched positions go into the partner's default cart (the only cart in IDS context).
   * Refused while a position still needs a supplier or a quantity; a second call changes nothing (200).
   */
  async moveToCart(caller: Caller, contextId: string): Promise<{ created: boolean; cartId: number }> {
    const ctx = await this.context(caller, contextId);
    const cart = await this.carts.defaultCart(ctx.bp_number, caller.userId, ctx.id);
    if (ctx.moved_to_cart) return { created: false, cartId: cart.id };
    const rows = await repo.contextItems(this.pool, ctx.id);
    const offers = await this.itemOffers(ctx.bp_number, rows);
    const states = rows.map((r) => ({ row: r, result: matchResultOf(r, offers) }));
    if (
      states.some(
        (s) => s.result === IdsMatchResult.SupplierNotMatched || s.result === IdsMatchResult.QuantityNotMatched,
      )
    ) {
      throw new HttpProblem(409, idsMessages.notReady);
    }
    const moved = await inTransaction(this.deps.db, async (tx) => {
      const locked = await repo.findContext(tx.$client, ctx.id, caller.userId, true);
      if (!locked || locked.moved_to_cart) return false;
      const matched = states
        .filter((st) => st.result === IdsMatchResult.Matched)
        .map(({ row }) => ({ row, offer: offers.get(row.matched_product_instance_id!)! }));
      const cartItemIds = await repo.addManyToCart(
        tx.$client,
        cart.id,
        matched.map(({ row, offer }) => ({
          instanceId: offer.productInstanceId,
          supplier: offer.supplierBpNumber,
          articleNumber: offer.articleNumber,
          quantity: Number(row.matched_quantity),
        })),
      );
      await repo.setItemsMoved(
        tx.$client,
        matched.map(({ row, offer }) => ({
          itemId: Number(row.id),
          cartItemId: cartItemIds.get(offer.productInstanceId)!,
        })),
      );
      await repo.setMoved(tx.$client, ctx.id);
      return true;
    });
    return { created: moved, cartId: cart.id };
  }

  /**
   * Returns the default cart (and the positions that could not be matched) to the hook URL; with
   * withCheckout the cart is ordered first through the portal's checkout.
   */
  async complete(caller: Caller, contextId: string, withCheckout: boolean) {
    const ctx = await this.context(caller, contextId);
    refuseForPunchout(ctx.action);
    if (ctx.completed_at) throw conflict(idsMessages.alreadyCompleted);
    if (!ctx.hook_url) throw new HttpProblem(400, idsMessages.noHookUrl);
    const cart = await this.carts.defaultCart(ctx.bp_number, caller.userId);
    const lines = await repo.cartLines(this.pool, cart.id);
    const idsRows = await repo.contextItems(this.pool, ctx.id);
    const offers = await this.offers.findOffers(ctx.bp_number, [
      ...new Set([...lines.map((l) => l.product_instance_id), ...idsRows.flatMap((r) => r.candidate_instance_ids)]),
    ]);
    const gtins = await repo.gtinsOf(
      this.pool,
      lines.map((l) => l.product_instance_id),
    );
    const byCartItem = new Map(
      idsRows.filter((r) => r.moved_cart_item_id).map((r) => [Number(r.moved_cart_item_id), r]),
    );
    const positions: ReturnPosition[] = [];
    for (const line of lines) {
      const offer = offers.get(line.product_instance_id);
      if (!offer) continue;
      if (withCheckout && offer.orderableStatus !== ProductOrderableStatus.Orderable) continue;
      const reference = byCartItem.get(Number(line.id))?.reference ?? null;
      positions.push(
        offerPosition(offer, gtins.get(offer.productInstanceId) ?? null, Number(line.quantity), reference),
      );
    }
    for (const row of idsRows) {
      const result = matchResultOf(row, offers);
      if (row.is_deleted || row.moved_cart_item_id || result === IdsMatchResult.Matched) continue;
      positions.push(unmatchedPosition(row, errorTexts[result ?? IdsMatchResult.NotMatched]));
    }
    let orderNumber: string | null = null;
    if (withCheckout) {
      orderNumber = (await this.checkoutService.checkout(caller, ctx.bp_number, cart.id)).customerOrderNumber;
    }
    await repo.completeContext(this.pool, ctx.id, orderNumber);
    const xml = buildReturnCart({
      version: answerVersion(ctx.version),
      withOrder: withCheckout,
      orderNumber,
      orderInfo: ctx.cart_header,
      positions,
    });
    return this.returnPage(ctx.id, { hookUrl: ctx.hook_url, target: ctx.target, warenkorb: xml });
  }

  /**
   * The answer of complete/Send: the form page, also stored under a one-time code for
   * /ids/return/{code}, the page of our origin the browser opens to post it (docs/ids.md).
   */
  private async returnPage(contextId: string, form: { hookUrl: string; target: string | null; warenkorb: string }) {
    const html = returnFormPage(form);
    const code = randomBytes(24).toString('base64url');
    await repo.storeReturnPage(this.pool, contextId, html, hashCode(code), IDS_RETURN_TTL_SECONDS);
    return { html, returnUrl: `/ids/return/${code}` };
  }

  /** The stored return page for its one-time code (null: unknown, used or expired). */
  async takeReturnPage(code: string) {
    return repo.takeReturnPage(this.pool, hashCode(code));
  }

  /** Action 'as': one product goes back to the program at once. */
  async send(caller: Caller, contextId: string, body: { productInstanceId: string; quantity: number }) {
    const ctx = await this.context(caller, contextId);
    refuseForPunchout(ctx.action);
    if (ctx.completed_at) throw conflict(idsMessages.alreadyCompleted);
    if (!ctx.hook_url) throw new HttpProblem(400, idsMessages.noHookUrl);
    const offer = (await this.offers.findOffers(ctx.bp_number, [body.productInstanceId])).get(body.productInstanceId);
    if (!offer) throw notFound('Artikel nicht gefunden');
    if (!quantityFits(body.quantity, offer.minOrderQuantity)) {
      throw validationProblem([{ field: 'body.quantity', message: errorTexts[IdsMatchResult.QuantityNotMatched] }]);
    }
    const xml = buildReturnCart({
      version: answerVersion(ctx.version),
      withOrder: false,
      orderNumber: null,
      orderInfo: ctx.cart_header,
      positions: [
        offerPosition(
          offer,
          (await repo.gtinsOf(this.pool, [offer.productInstanceId])).get(offer.productInstanceId) ?? null,
          body.quantity,
          null,
        ),
      ],
    });
    // The product went back: the IDS session ends like after complete (its token is refused from now on).
    await repo.completeContext(this.pool, ctx.id, null);
    return this.returnPage(ctx.id, { hookUrl: ctx.hook_url, target: ctx.target, warenkorb: xml });
  }

  async credentials(caller: Caller, bpNumber: string) {
    const row = await repo.credentialOf(this.pool, bpNumber, caller.userId);
    return { bpNumber, loginName: row?.login_name ?? null, configured: Boolean(row) };
  }

  async saveCredentials(caller: Caller, bpNumber: string, body: { loginName: string; password: string }) {
    if (await repo.loginNameTaken(this.pool, bpNumber, caller.userId, body.loginName)) {
      throw validationProblem([
        { field: 'body.loginName', message: 'Dieser Benutzername ist für diesen Geschäftspartner bereits vergeben.' },
      ]);
    }
    const row = await repo.saveCredential(
      this.pool,
      bpNumber,
      caller.userId,
      body.loginName,
      await hashPassword(body.password),
    );
    return { bpNumber, loginName: row.login_name as string, configured: true };
  }
}

/**
 * A punchout session (OCI, cXML) is an IDS context too (same session scope), but its cart goes back to the
 * procurement system only through the punchout return, never as an IDS cart and never with the portal's checkout.
 */
function refuseForPunchout(action: string) {
  if (action === 'oci' || action === 'cxml') throw conflict(idsMessages.punchoutSession);
}

function offerPosition(
  offer: OfferSnapshot,
  gtin: string | null,
  quantity: number,
  reference: Record<string, unknown> | null,
): ReturnPosition {
  return {
    articleNumber: offer.articleNumber,
    gtin,
    manufacturerId: offer.manufacturerName ?? offer.manufacturerId,
    manufacturerIdType: null,
    quantity,
    unit: offer.unit,
    shortName: offer.productName,
    longText: offer.description,
    unitPrice: offer.unitPrice,
    priceBasis: offer.priceBasis,
    total: lineTotal(offer, quantity),
    hint: offer.manufacturerPid ? `Herstellerartikelnummer ${offer.manufacturerPid}` : null,
    error: null,
    reference,
  };
}

function unmatchedPosition(row: repo.IdsItemRow, text: string): ReturnPosition {
  return {
    articleNumber: row.article_number ?? '',
    gtin: row.gtin,
    manufacturerId: row.manufacturer_id,
    manufacturerIdType: null,
    quantity: row.quantity == null ? 0 : Number(row.quantity),
    unit: row.unit,
    shortName: row.short_name ?? (row.article_number ? null : row.raw_text.replace(/<[^>]*>/g, ' ').slice(0, 100)),
    longText: null,
    unitPrice: null,
    priceBasis: 1,
    total: null,
    hint: null,
    error: { code: 1, text },
    reference: row.reference,
  };
}
