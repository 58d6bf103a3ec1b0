import { cartMessages, type DeliveryAddress, type DeliveryAddressInput } from '@shk/contracts';
import type { Db } from '../../db/pool.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import {
  deleteAddress,
  ensureRegisteredAddress,
  findAddress,
  insertAddress,
  listAddresses,
  updateAddress,
} from './addresses.repo.ts';

/** Delivery addresses of a business partner; the registered address is listed first and cannot be changed. */
export class AddressesService {
  constructor(private readonly handle: Db) {}

  /** Read on use: the OpenAPI generator registers routes without a database. */
  private get db() {
    return this.handle.$client;
  }

  async list(bpNumber: string): Promise<DeliveryAddress[]> {
    await ensureRegisteredAddress(this.db, bpNumber);
    return listAddresses(this.db, bpNumber);
  }

  create(bpNumber: string, input: DeliveryAddressInput): Promise<DeliveryAddress> {
    return insertAddress(this.db, bpNumber, input);
  }

  async update(bpNumber: string, id: number, input: DeliveryAddressInput): Promise<DeliveryAddress> {
    await this.changeable(bpNumber, id);
    return updateAddress(this.db, bpNumber, id, input);
  }

  /** Carts and items that used it fall back to no address (FK ON DELETE SET NULL); orders keep their snapshot. */
  async remove(bpNumber: string, id: number): Promise<void> {
    await this.changeable(bpNumber, id);
    await deleteAddress(this.db, bpNumber, id);
  }

  private async changeable(bpNumber: string, id: number) {
    const existing = await findAddress(this.db, bpNumber, id);
    if (!existing) throw notFound('Adresse nicht gefunden');
    if (existing.isReadOnly) throw new HttpProblem(400, cartMessages.readOnlyAddress);
  }
}
