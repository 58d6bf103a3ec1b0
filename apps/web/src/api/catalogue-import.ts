import { api } from './client';
import { unwrap } from './problem';
import { downloadApiFile } from './download';
import type { components } from './schema';

export type CatalogueImport = components['schemas']['CatalogueImport'];
export type CatalogueImportDetails = components['schemas']['CatalogueImportDetails'];
export type CatalogueImportSettings = components['schemas']['CatalogueImportSettings'];
export type CatalogueImportDecision = 'Approve' | 'Discard' | 'Undo';

const importPath = (bp: string, id: number) =>
  `/v1/Suppliers/${encodeURIComponent(bp)}/CatalogueImports/${encodeURIComponent(String(id))}`;

export const catalogueImportApi = {
  list: async (bp: string): Promise<CatalogueImport[]> =>
    unwrap(
      await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImports', {
        params: { path: { supplierBusinessPartnerNo: bp } },
      }),
    ),
  details: async (bp: string, id: number): Promise<CatalogueImportDetails> =>
    unwrap(
      await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImports/{id}', {
        params: { path: { supplierBusinessPartnerNo: bp, id } },
      }),
    ),
  upload: async (bp: string, file: File): Promise<{ id: number; message: string }> => {
    const form = new FormData();
    form.append('file', file, file.name);
    return unwrap(
      await api.POST('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImports', {
        params: { path: { supplierBusinessPartnerNo: bp } },
        body: form as never,
        bodySerializer: (body: unknown) => body as FormData,
      }),
    );
  },
  /** Freigeben, Verwerfen or Import rückgängig machen; answers the import as it is then. */
  decide: async (bp: string, id: number, decision: CatalogueImportDecision): Promise<CatalogueImportDetails> => {
    const params = { path: { supplierBusinessPartnerNo: bp, id } };
    if (decision === 'Approve')
      return unwrap(
        await api.POST('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImports/{id}/Approve', { params }),
      );
    if (decision === 'Discard')
      return unwrap(
        await api.POST('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImports/{id}/Discard', { params }),
      );
    return unwrap(await api.POST('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImports/{id}/Undo', { params }));
  },
  settings: async (bp: string): Promise<CatalogueImportSettings> =>
    unwrap(
      await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImportSettings', {
        params: { path: { supplierBusinessPartnerNo: bp } },
      }),
    ),
  saveSettings: async (bp: string, body: CatalogueImportSettings): Promise<CatalogueImportSettings> =>
    unwrap(
      await api.PUT('/v1/Suppliers/{supplierBusinessPartnerNo}/CatalogueImportSettings', {
        params: { path: { supplierBusinessPartnerNo: bp } },
        body,
      }),
    ),
  /** The import's warnings or rejections as CSV (German headers). */
  downloadCsv: (bp: string, id: number, kind: 'Warnings' | 'Rejections') =>
    downloadApiFile(
      `${importPath(bp, id)}/${kind}.csv`,
      `Katalogimport-${id}-${kind === 'Warnings' ? 'Warnungen' : 'Ablehnungen'}.csv`,
    ),
};
