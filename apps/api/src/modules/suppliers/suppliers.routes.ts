import { z } from 'zod';
import { BusinessPartner, Role, SupplierIntegrationInfo } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { notFound } from '../../http/problem.ts';
import { toBusinessPartner } from '../profile/profile.repo.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';

const signedIn = [Role.Buyer, Role.Seller, Role.Administrator, Role.Support, Role.PlatformOperator] as const;
const BpParams = z.object({ supplierBusinessPartnerNo: z.string().min(1).max(20) });

export const SupplierCompanyInfo = BusinessPartner.extend({
  supplierStatusId: z.number().int(),
  requiredOnboardingForm: z.boolean(),
  hasOnboardingFormTemplate: z.boolean(),
  hasLogo: z.boolean(),
  showSupplierNote: z.boolean(),
  supplierNote: z.string().nullable(),
  hideGrossPrice: z.boolean(),
  hideAdditionalInfo: z.boolean(),
  deliveryCost: z.number(),
  freeDeliveryThreshold: z.number(),
}).meta({ id: 'SupplierCompanyInfo' });

function toIntegrationInfo(r: any) {
  return {
    supplierBusinessPartnerNo: r.bp_number, integrationStatus: r.integration_status, provider: r.integration_provider,
    productDataSource: r.product_data_source, filterValue: r.filter_value, brandName: r.brand_name,
  };
}

/** Supplier reads every signed-in role needs (company info, integration info, onboarding template). */
export async function supplierReadRoutes(app: App, { db }: AppDeps) {
  app.get('/v1/Suppliers/:supplierBusinessPartnerNo/CompanyInfo', {
    config: { roles: signedIn },
    schema: { tags: ['Lieferanten'], summary: 'Firmendaten und Einstellungen eines Lieferanten', params: BpParams, response: { 200: SupplierCompanyInfo } },
  }, async (request) => {
    const { rows } = await db.$client.query(
      `SELECT b.*, s.supplier_status_id, s.required_onboarding_form, s.onboarding_form_template IS NOT NULL AS has_template,
              s.logo IS NOT NULL AS has_logo, s.show_supplier_note, s.supplier_note, s.hide_gross_price, s.hide_additional_info,
              s.delivery_cost, s.free_delivery_threshold
         FROM suppliers s JOIN business_partners b ON b.bp_number = s.bp_number WHERE s.bp_number = $1`, [request.params.supplierBusinessPartnerNo]);
    const r = rows[0];
    if (!r) throw notFound('Lieferant nicht gefunden');
    return {
      ...toBusinessPartner(r), supplierStatusId: r.supplier_status_id, requiredOnboardingForm: r.required_onboarding_form,
      hasOnboardingFormTemplate: r.has_template, hasLogo: r.has_logo, showSupplierNote: r.show_supplier_note,
      supplierNote: r.show_supplier_note ? r.supplier_note : null, hideGrossPrice: r.hide_gross_price, hideAdditionalInfo: r.hide_additional_info,
      deliveryCost: r.delivery_cost, freeDeliveryThreshold: r.free_delivery_threshold,
    };
  });

  app.get('/v1/Suppliers/:supplierBusinessPartnerNo/ItekIntegrationInfo', {
    config: { roles: signedIn },
    schema: { tags: ['Lieferanten'], summary: 'Stand der Produktdaten-Integration eines Lieferanten', params: BpParams, response: { 200: SupplierIntegrationInfo } },
  }, async (request) => {
    const { rows } = await db.$client.query('SELECT * FROM suppliers WHERE bp_number = $1', [request.params.supplierBusinessPartnerNo]);
    if (!rows[0]) throw notFound('Lieferant nicht gefunden');
    return toIntegrationInfo(rows[0]);
  });

  app.post('/v1/Suppliers/ItekIntegrationInfo', {
    config: { roles: signedIn },
    schema: {
      tags: ['Lieferanten'], summary: 'Stand der Produktdaten-Integration mehrerer Lieferanten',
      body: z.object({ supplierBusinessPartnerNumbers: z.array(z.string().min(1).max(20)).max(1000) }),
      response: { 200: z.array(SupplierIntegrationInfo) },
    },
  }, async (request) => {
    const { rows } = await db.$client.query('SELECT * FROM suppliers WHERE bp_number = ANY($1) ORDER BY bp_number', [request.body.supplierBusinessPartnerNumbers]);
    return rows.map(toIntegrationInfo);
  });

  app.get('/v1/SupplierOnboardingFormTemplates/:bpNumber', {
    config: { roles: signedIn },
    schema: { tags: ['Lieferanten'], summary: 'Neukundenformular eines Lieferanten herunterladen', params: z.object({ bpNumber: z.string().min(1).max(20) }) },
  }, async (request, reply) => {
    const { rows } = await db.$client.query<{ onboarding_form_template: Buffer | null; onboarding_form_template_file_name: string | null; required_onboarding_form: boolean }>(
      'SELECT onboarding_form_template, onboarding_form_template_file_name, required_onboarding_form FROM suppliers WHERE bp_number = $1', [request.params.bpNumber]);
    const r = rows[0];
    if (!r?.onboarding_form_template) throw notFound('Kein Neukundenformular vorhanden');
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', attachmentHeader(r.onboarding_form_template_file_name ?? 'Neukundenformular.pdf'))
      .send(r.onboarding_form_template);
  });
}
