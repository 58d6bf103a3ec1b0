import type { FastifyRequest } from 'fastify';
import { idsMessages } from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { currentPartnerOf, type IdsScope } from '../../http/auth.ts';
import { forbidden } from '../../http/problem.ts';
import { isDefaultCart, isItemOfDefaultCart } from './carts.repo.ts';

/**
 * An IDS session works on one cart only: its partner's default cart (the one the pre-cart moves into and the return
 * sends back). These guards refuse any other cart of the partner on the cart routes (403); a cart or item that does
 * not exist is left to the route (404). Outside an IDS session they do not run (http/auth.ts).
 */
export function onlyIdsCart(db: Db, cartIdOf: (request: FastifyRequest) => number | undefined): IdsScope {
  return async (request) => {
    const cartId = cartIdOf(request);
    if (cartId === undefined) return;
    if ((await isDefaultCart(db.$client, currentPartnerOf(request), cartId)) === false) {
      throw forbidden(idsMessages.onlyIdsCart);
    }
  };
}

/** The same for a route that names a cart item: it must lie in the IDS session's cart. */
export function onlyIdsCartItem(db: Db, itemIdOf: (request: FastifyRequest) => number): IdsScope {
  return async (request) => {
    if ((await isItemOfDefaultCart(db.$client, currentPartnerOf(request), itemIdOf(request))) === false) {
      throw forbidden(idsMessages.onlyIdsCart);
    }
  };
}

export const idParam = (request: FastifyRequest) => (request.params as { id: number }).id;
export const cartItemIdParam = (request: FastifyRequest) => (request.params as { cartItemId: number }).cartItemId;
