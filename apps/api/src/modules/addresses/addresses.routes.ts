import { z } from 'zod';
import { DeliveryAddress, DeliveryAddressInput, Role, cartMessages } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { currentPartnerOf } from '../../http/auth.ts';
import { HttpProblem, notFound } from '../../http/problem.ts';
import type { Db } from '../../db/pool.ts';

const IdParams = z.object({ id: z.coerce.number().int().positive().max(2 ** 53) });

function toAddress(r: any): z.infer<typeof DeliveryAddress> {
  return {
    id: Number(r.id), companyName: r.company_name, contactPerson: r.contact_person, additionalInfo: r.additional_info,
    streetName: r.street_name, houseNumber: r.house_number, postalCode: r.postal_code, city: r.city,
    phoneNumber: r.phone_number, countryCode: r.country_code, isReadOnly: r.is_read_only,
  };
}

/**
 * The partner's registered address is offered as a read-only delivery address; it is created
 * from the company data the first time the partner's addresses are read.
 */
export async function ensureRegisteredAddress(db: Db, bpNumber: string) {
  await db.$client.query(
    `INSERT INTO delivery_addresses (bp_number, company_name, street_name, house_number, postal_code, city, phone_number, country_code, is_read_only)
     SELECT b.bp_number, COALESCE(b.official_company_name, b.name), COALESCE(b.street, ''), COALESCE(b.house_number, ''), COALESCE(b.postal_code, ''),
            COALESCE(b.city, ''), b.phone_number, COALESCE(b.country, 'DE'), true
       FROM business_partners b
      WHERE b.bp_number = $1 AND NOT EXISTS (SELECT 1 FROM delivery_addresses a WHERE a.bp_number = $1 AND a.is_read_only)`, [bpNumber]);
}

export async function findAddress(db: Db, bpNumber: string, id: number) {
  const { rows } = await db.$client.query('SELECT * FROM delivery_addresses WHERE id = $1 AND bp_number = $2', [id, bpNumber]);
  return rows[0] ? toAddress(rows[0]) : null;
}

export async function addressesRoutes(app: App, { db }: AppDeps) {
  const buyer = [Role.Buyer] as const;

  app.get('/v1/DeliveryAddresses', {
    config: { roles: buyer },
    schema: { tags: ['Lieferadressen'], summary: 'Lieferadressen des aktuellen Geschäftspartners', response: { 200: z.array(DeliveryAddress) } },
  }, async (request) => {
    const bp = currentPartnerOf(request);
    await ensureRegisteredAddress(db, bp);
    const { rows } = await db.$client.query('SELECT * FROM delivery_addresses WHERE bp_number = $1 ORDER BY is_read_only DESC, company_name, id', [bp]);
    return rows.map(toAddress);
  });

  app.post('/v1/DeliveryAddresses', {
    config: { roles: buyer },
    schema: { tags: ['Lieferadressen'], summary: 'Lieferadresse anlegen', body: DeliveryAddressInput, response: { 201: DeliveryAddress } },
  }, async (request, reply) => {
    const a = request.body;
    const { rows } = await db.$client.query(
      `INSERT INTO delivery_addresses (bp_number, company_name, contact_person, additional_info, street_name, house_number, postal_code, city, phone_number, country_code)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10) RETURNING *`,
      [currentPartnerOf(request), a.companyName, a.contactPerson || null, a.additionalInfo || null, a.streetName, a.houseNumber, a.postalCode, a.city, a.phoneNumber || null, a.countryCode]);
    return reply.status(201).send(toAddress(rows[0]));
  });

  app.put('/v1/DeliveryAddresses/:id', {
    config: { roles: buyer },
    schema: { tags: ['Lieferadressen'], summary: 'Lieferadresse ändern', params: IdParams, body: DeliveryAddressInput, response: { 200: DeliveryAddress } },
  }, async (request) => {
    const bp = currentPartnerOf(request);
    const existing = await findAddress(db, bp, request.params.id);
    if (!existing) throw notFound('Adresse nicht gefunden');
    if (existing.isReadOnly) throw new HttpProblem(400, cartMessages.readOnlyAddress);
    const a = request.body;
    const { rows } = await db.$client.query(
      `UPDATE delivery_addresses SET company_name = $3, contact_person = $4, additional_info = $5, street_name = $6, house_number = $7,
         postal_code = $8, city = $9, phone_number = $10, country_code = $11, updated_at = now()
       WHERE id = $1 AND bp_number = $2 RETURNING *`,
      [request.params.id, bp, a.companyName, a.contactPerson || null, a.additionalInfo || null, a.streetName, a.houseNumber, a.postalCode, a.city, a.phoneNumber || null, a.countryCode]);
    return toAddress(rows[0]);
  });

  app.delete('/v1/DeliveryAddresses/:id', {
    config: { roles: buyer },
    schema: { tags: ['Lieferadressen'], summary: 'Lieferadresse löschen', params: IdParams, response: { 204: z.null() } },
  }, async (request, reply) => {
    const bp = currentPartnerOf(request);
    const existing = await findAddress(db, bp, request.params.id);
    if (!existing) throw notFound('Adresse nicht gefunden');
    if (existing.isReadOnly) throw new HttpProblem(400, cartMessages.readOnlyAddress);
    // Carts and items that used it fall back to no address (FK ON DELETE SET NULL); orders keep their snapshot.
    await db.$client.query('DELETE FROM delivery_addresses WHERE id = $1 AND bp_number = $2', [request.params.id, bp]);
    return reply.status(204).send(null);
  });
}
