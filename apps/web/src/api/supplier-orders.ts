import { api } from './client';
import { expectStatus, unwrap } from './problem';
import { usePartnerQuery } from './session';
import type { components } from './schema';

/** The seller's supplier orders (seller-staff-side.md §7 'Supplier orders'). */
type Schemas = components['schemas'];
export type SupplierOrderOverview = Schemas['SupplierOrderOverview'];
export type SupplierOrderOverviewItem = Schemas['SupplierOrderOverviewItem'];
export type SupplierOrderConfirmationBody = Schemas['SupplierOrderConfirmationBody'];
export type SupplierOrderDocument = Schemas['SupplierOrderDocument'];

export interface SupplierOrderFilter {
  page: number;
  status?: number;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
}

const supplierOrderKeys = {
  overview: (f: SupplierOrderFilter) => ['orders', 'seller', 'overview', f] as const,
  details: (no: string) => ['orders', 'seller', 'details', no] as const,
};

export const supplierOrdersApi = {
  overview: async (f: SupplierOrderFilter): Promise<SupplierOrderOverview> =>
    unwrap(
      await api.GET('/v1/SupplierOrders/overview', {
        params: {
          query: {
            Page: f.page,
            PageSize: 25,
            Status: f.status,
            DateFrom: f.dateFrom || undefined,
            DateTo: f.dateTo || undefined,
            SearchTerm: f.search || undefined,
          },
        },
      }),
    ),
  details: async (supplierOrderNumber: string) =>
    unwrap(
      await api.GET('/v1/SupplierOrders/{supplierOrderNumber}/Details', {
        params: { path: { supplierOrderNumber } },
      }),
    ),
  confirm: async (supplierOrderNumber: string, statusId: number, body: SupplierOrderConfirmationBody) =>
    unwrap(
      await api.POST('/v1/SupplierOrders/{supplierOrderNumber}/Confirmation/{statusId}', {
        params: { path: { supplierOrderNumber, statusId } },
        body,
      }),
    ),
  uploadDocuments: async (supplierOrderNumber: string, files: File[]): Promise<SupplierOrderDocument[]> => {
    const form = new FormData();
    for (const file of files) form.append('files', file, file.name);
    return unwrap(
      await api.POST('/v1/SupplierOrders/{supplierOrderNumber}/Attachments', {
        params: { path: { supplierOrderNumber } },
        body: form as never,
        bodySerializer: (body: unknown) => body as FormData,
      }),
    ) as SupplierOrderDocument[];
  },
  deleteDocument: async (supplierOrderNumber: string, id: number) =>
    expectStatus(
      await api.DELETE('/v1/SupplierOrders/{supplierOrderNumber}/Attachments/{id}', {
        params: { path: { supplierOrderNumber, id } },
      }),
      204,
    ),
};

export const supplierOrderDocumentPath = (supplierOrderNumber: string, id: number) =>
  `/v1/SupplierOrders/${encodeURIComponent(supplierOrderNumber)}/Attachments/${id}`;

export const useSupplierOrderOverview = (f: SupplierOrderFilter) =>
  usePartnerQuery(supplierOrderKeys.overview(f), () => supplierOrdersApi.overview(f), {
    placeholderData: (previous) => previous,
  });

export const useSellerSupplierOrder = (no: string, enabled: boolean) =>
  usePartnerQuery(supplierOrderKeys.details(no), () => supplierOrdersApi.details(no), { enabled });

export type SupplierOrderTransmissions = Schemas['SupplierOrderTransmissions'];

/** Staff: transmission log of a supplier order and 'Erneut senden'. */
export const transmissionsApi = {
  log: async (supplierOrderNumber: string): Promise<SupplierOrderTransmissions> =>
    unwrap(
      await api.GET('/v1/PlatformOperator/SupplierOrders/{supplierOrderNumber}/Transmissions', {
        params: { path: { supplierOrderNumber } },
      }),
    ),
  /** 'first' keeps the channel of the first attempt (the default); 'current' uses the supplier's settings now. */
  resend: async (
    supplierOrderNumber: string,
    channel: 'first' | 'current' = 'first',
  ): Promise<SupplierOrderTransmissions> =>
    unwrap(
      await api.POST('/v1/PlatformOperator/SupplierOrders/{supplierOrderNumber}/Resend', {
        params: { path: { supplierOrderNumber }, query: { channel } },
      }),
    ),
};

export const useTransmissionLog = (no: string, enabled: boolean) =>
  usePartnerQuery(['orders', 'transmissions', no], () => transmissionsApi.log(no), { enabled });

export type InboundOrderResponsePage = Schemas['InboundOrderResponsePage'];
export type InboundOrderResponseItem = Schemas['InboundOrderResponseItem'];

/** Staff: received ORDRSP files (rejected ones with their reason, kept for staff). */
const inboundResponsesApi = {
  list: async (page: number): Promise<InboundOrderResponsePage> =>
    unwrap(
      await api.GET('/v1/PlatformOperator/InboundOrderResponses', {
        params: { query: { Outcome: 'rejected', Page: page, PageSize: 25 } },
      }),
    ),
};

export const inboundResponseContentPath = (id: number) => `/v1/PlatformOperator/InboundOrderResponses/${id}/Content`;

export const useRejectedInboundResponses = (page: number, enabled: boolean) =>
  usePartnerQuery(['orders', 'inbound-responses', page], () => inboundResponsesApi.list(page), { enabled });

export type InboundCredentialsInfo = Schemas['InboundCredentialsInfo'];

/** Administrators: the Basic-auth credentials a supplier's system uses for POST /inbound/ordrsp. */
export const inboundCredentialsApi = {
  get: async (bp: string): Promise<InboundCredentialsInfo> =>
    unwrap(
      await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}/InboundCredentials', {
        params: { path: { supplierBusinessPartnerNo: bp } },
      }),
    ),
  set: async (bp: string, body: { username: string; password: string }): Promise<InboundCredentialsInfo> =>
    unwrap(
      await api.PUT('/v1/Suppliers/{supplierBusinessPartnerNo}/InboundCredentials', {
        params: { path: { supplierBusinessPartnerNo: bp } },
        body,
      }),
    ),
};

export const useInboundCredentials = (bp: string) =>
  usePartnerQuery(['suppliers', 'inbound-credentials', bp], () => inboundCredentialsApi.get(bp));
