import { api } from './client';
import { unwrap } from './problem';
import type { components } from './schema';

export type CatalogueImport = components['schemas']['CatalogueImport'];
export type CatalogueImportDetails = components['schemas']['CatalogueImportDetails'];

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
};
