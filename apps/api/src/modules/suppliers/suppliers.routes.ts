import { z } from 'zod';
import { fileStorage } from '../storage/index.ts';
import { BusinessPartner, Role, SupplierIntegrationInfo } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { attachmentHeader } from '../../lib/content-disposition.ts';
import { SupplierReadsService } from './supplier-reads.service.ts';

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

/** Supplier reads every signed-in role needs (company info, integration info, onboarding template). */
export async function supplierReadRoutes(app: App, deps: AppDeps) {
  const { db } = deps;
  const reads = new SupplierReadsService(db, fileStorage(deps));
  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/CompanyInfo',
    {
      config: { ids: 'allowed', roles: signedIn },
      schema: {
        tags: ['Lieferanten'],
        summary: 'Firmendaten und Einstellungen eines Lieferanten',
        params: BpParams,
        response: { 200: SupplierCompanyInfo },
      },
    },
    async (request) => reads.companyInfo(request.params.supplierBusinessPartnerNo),
  );

  app.get(
    '/v1/Suppliers/:supplierBusinessPartnerNo/ItekIntegrationInfo',
    {
      config: { ids: 'allowed', roles: signedIn },
      schema: {
        tags: ['Lieferanten'],
        summary: 'Stand der Produktdaten-Integration eines Lieferanten',
        params: BpParams,
        response: { 200: SupplierIntegrationInfo },
      },
    },
    async (request) => reads.integration(request.params.supplierBusinessPartnerNo),
  );

  app.post(
    '/v1/Suppliers/ItekIntegrationInfo',
    {
      config: { roles: signedIn },
      schema: {
        tags: ['Lieferanten'],
        summary: 'Stand der Produktdaten-Integration mehrerer Lieferanten',
        body: z.object({ supplierBusinessPartnerNumbers: z.array(z.string().min(1).max(20)).max(1000) }),
        response: { 200: z.array(SupplierIntegrationInfo) },
      },
    },
    async (request) => reads.integrations(request.body.supplierBusinessPartnerNumbers),
  );

  app.get(
    '/v1/SupplierOnboardingFormTemplates/:bpNumber',
    {
      config: { roles: signedIn },
      schema: {
        tags: ['Lieferanten'],
        summary: 'Neukundenformular eines Lieferanten herunterladen',
        params: z.object({ bpNumber: z.string().min(1).max(20) }),
      },
    },
    async (request, reply) => {
      const file = await reads.template(request.params.bpNumber);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachmentHeader(file.fileName))
        .send(file.content);
    },
  );
}
