import type { Db } from '../../db/pool.ts';
import { notFound } from '../../http/problem.ts';
import { toBusinessPartner } from '../profile/index.ts';
import type { FileStorage } from '../storage/index.ts';
import * as repo from './suppliers.repo.ts';

const toIntegrationInfo = (r: repo.IntegrationRow) => ({
  supplierBusinessPartnerNo: r.bp_number,
  integrationStatus: r.integration_status,
  provider: r.integration_provider,
  productDataSource: r.product_data_source,
  filterValue: r.filter_value,
  brandName: r.brand_name,
});

/** The supplier reads every signed-in role needs (company info, integration info, onboarding template). */
export class SupplierReadsService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
  ) {}

  async companyInfo(bp: string) {
    const r = await repo.findCompanyInfo(this.db.$client, bp);
    if (!r) throw notFound('Lieferant nicht gefunden');
    return {
      ...toBusinessPartner(r),
      supplierStatusId: r.supplier_status_id,
      requiredOnboardingForm: r.required_onboarding_form,
      hasOnboardingFormTemplate: r.has_template,
      hasLogo: r.has_logo,
      showSupplierNote: r.show_supplier_note,
      supplierNote: r.show_supplier_note ? r.supplier_note : null,
      hideGrossPrice: r.hide_gross_price,
      hideAdditionalInfo: r.hide_additional_info,
      deliveryCost: Number(r.delivery_cost),
      freeDeliveryThreshold: Number(r.free_delivery_threshold),
    };
  }

  async integration(bp: string) {
    const [row] = await repo.findIntegrations(this.db.$client, [bp]);
    if (!row) throw notFound('Lieferant nicht gefunden');
    return toIntegrationInfo(row);
  }

  async integrations(bps: string[]) {
    return (await repo.findIntegrations(this.db.$client, bps)).map(toIntegrationInfo);
  }

  async template(bp: string) {
    const r = await repo.readTemplate(this.db.$client, bp);
    if (!r) throw notFound('Kein Neukundenformular vorhanden');
    // Templates from before the file storage keep their bytes in the row.
    const content = r.onboarding_form_template_storage_key
      ? await this.storage.get(r.onboarding_form_template_storage_key)
      : r.onboarding_form_template;
    if (!content) throw notFound('Kein Neukundenformular vorhanden');
    return {
      content,
      fileName: r.onboarding_form_template_file_name ?? 'Neukundenformular.pdf',
    };
  }
}
