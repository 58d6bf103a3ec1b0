import type { FastifyRequest } from 'fastify';
import { cartMessages, idsMessages, punchoutTexts } from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { callerOf, currentPartnerOf, type IdsScope } from '../../http/auth.ts';
import { forbidden, notFound } from '../../http/problem.ts';
import { cartScopeOf, cartScopeOfItem, sessionCartOf, type CartScopeRow } from './carts.repo.ts';

/**
 * The cart guards of the cart routes. They run for every caller (http/auth.ts):
 * - An IDS session works on one cart only. A punchout session (OCI, cXML) has its own cart, created with the
 *   session; an IDS session without one uses its partner's default cart (the one the pre-cart moves into and the
 *   return sends back). Any other cart of the partner is refused (403); a cart or item that does not exist is left
 *   to the route (404).
 * - A read-only cart (a cXML inspect session's) refuses every change (403), whoever asks.
 * - Outside that session a punchout session's cart does not exist (404): it is never mixed with the normal carts.
 */
export function onlyIdsCart(db: Db, cartIdOf: (request: FastifyRequest) => number | undefined): IdsScope {
  return async (request) => {
    const cartId = cartIdOf(request);
    const contextId = callerOf(request).idsContextId;
    // No cart named: the route takes the session's cart (or the default cart) – that one must allow the change.
    const cart =
      cartId === undefined
        ? contextId
          ? await sessionCartOf(db.$client, contextId)
          : null
        : await cartScopeOf(db.$client, currentPartnerOf(request), cartId);
    await check(db, request, cart);
  };
}

/** The same for a route that names a cart item: it must lie in a cart the caller may use. */
export function onlyIdsCartItem(db: Db, itemIdOf: (request: FastifyRequest) => number): IdsScope {
  return async (request) => {
    await check(db, request, await cartScopeOfItem(db.$client, currentPartnerOf(request), itemIdOf(request)));
  };
}

async function check(db: Db, request: FastifyRequest, cart: CartScopeRow | null) {
  if (!cart) return;
  const contextId = callerOf(request).idsContextId;
  if (!contextId) {
    if (cart.punchout_context_id) throw notFound(cartMessages.cartNotFound);
  } else if (cart.punchout_context_id !== contextId) {
    const own = cart.punchout_context_id ? null : await sessionCartOf(db.$client, contextId);
    if (cart.punchout_context_id || !cart.is_default || own) throw forbidden(idsMessages.onlyIdsCart);
  }
  if (cart.read_only && request.method !== 'GET') throw forbidden(punchoutTexts.readOnlyCart);
}

export const idParam = (request: FastifyRequest) => (request.params as { id: number }).id;
export const cartItemIdParam = (request: FastifyRequest) => (request.params as { cartItemId: number }).cartItemId;
