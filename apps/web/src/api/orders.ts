import { api } from './client';
import { unwrap } from './problem';
import { usePartnerQuery } from './session';
import type { components } from './schema';

/**
 * Customer and supplier order reads (buyer-side.md §7 'Customer orders', seller-staff-side.md §7 'Staff
 * orders'). Keys live under ['bp', partner, 'orders', …]; placing an order invalidates them.
 */
type Schemas = components['schemas'];
export type CustomerOrderList = Schemas['CustomerOrderList'];
export type CustomerOrderListItem = Schemas['CustomerOrderListItem'];
export type SupplierOrderList = Schemas['SupplierOrderList'];
export type SupplierOrderListItem = Schemas['SupplierOrderListItem'];
export type CustomerOrderDetails = Schemas['CustomerOrderDetails'];
export type SupplierOrderDetails = Schemas['SupplierOrderDetails'];
export type OrderLine = Schemas['OrderLine'];

export type OrderType = 'customer' | 'supplier';

export interface OrderListFilter {
  /** One-based (the UI counts from zero and adds one). */
  page: number;
  pageSize: number;
  year?: number;
  /** Order number, article number or name, or project (buyers and staff's customer orders). */
  search?: string;
  buyerName?: string;
  statusId?: number;
  supplierId?: string;
}

export const orderKeys = {
  all: ['orders'] as const,
  buyerList: (filter: OrderListFilter) => ['orders', 'buyer', filter] as const,
  staffList: (type: OrderType, filter: OrderListFilter) => ['orders', 'staff', type, filter] as const,
  customerDetails: (orderNumber: string, staff: boolean) => ['orders', 'customer', orderNumber, staff] as const,
  supplierDetails: (orderNumber: string) => ['orders', 'supplier', orderNumber] as const,
};

export const ordersApi = {
  buyerOrders: async (f: OrderListFilter): Promise<CustomerOrderList> =>
    unwrap(
      await api.GET('/v1/CustomerOrders', {
        params: { query: { Page: f.page, PageSize: f.pageSize, Year: f.year, Search: f.search || undefined } },
      }),
    ),
  staffCustomerOrders: async (f: OrderListFilter): Promise<CustomerOrderList> =>
    unwrap(
      await api.GET('/v1/PlatformOperator/CustomerOrders', {
        params: {
          query: {
            Page: f.page,
            PageSize: f.pageSize,
            Year: f.year,
            Search: f.search || undefined,
            BuyerName: f.buyerName,
            CustomerOrderStatusId: f.statusId,
          },
        },
      }),
    ),
  staffSupplierOrders: async (f: OrderListFilter): Promise<SupplierOrderList> =>
    unwrap(
      await api.GET('/v1/PlatformOperator/SupplierOrders', {
        params: {
          query: {
            Page: f.page,
            PageSize: f.pageSize,
            Year: f.year,
            BuyerName: f.buyerName,
            SupplierOrderStatusId: f.statusId,
            SupplierId: f.supplierId,
          },
        },
      }),
    ),
  customerOrder: async (customerOrderNumber: string, staff: boolean): Promise<CustomerOrderDetails> =>
    staff
      ? unwrap(
          await api.GET('/v1/PlatformOperator/CustomerOrders/{customerOrderNumber}', {
            params: { path: { customerOrderNumber } },
          }),
        )
      : unwrap(
          await api.GET('/v1/CustomerOrders/{customerOrderNumber}/Details', {
            params: { path: { customerOrderNumber } },
          }),
        ),
  reorder: async (
    customerOrderNumber: string,
    body: { cartId?: number; newCartName?: string },
  ): Promise<Schemas['ReorderResult']> =>
    unwrap(
      await api.POST('/v1/CustomerOrders/{customerOrderNumber}/Reorder', {
        params: { path: { customerOrderNumber } },
        body,
      }),
    ),
  staffSupplierOrder: async (supplierOrderNumber: string): Promise<SupplierOrderDetails> =>
    unwrap(
      await api.GET('/v1/PlatformOperator/SupplierOrders/{supplierOrderNumber}', {
        params: { path: { supplierOrderNumber } },
      }),
    ),
};

export const useBuyerOrders = (filter: OrderListFilter, enabled = true) =>
  usePartnerQuery(orderKeys.buyerList(filter), () => ordersApi.buyerOrders(filter), {
    enabled,
    placeholderData: (previous) => previous,
  });

export function useStaffOrders(type: OrderType, filter: OrderListFilter, enabled = true) {
  return usePartnerQuery<CustomerOrderList | SupplierOrderList>(
    orderKeys.staffList(type, filter),
    () => (type === 'supplier' ? ordersApi.staffSupplierOrders(filter) : ordersApi.staffCustomerOrders(filter)),
    // Keep the previous page on screen while the next loads, but never show one list type as the other.
    {
      enabled,
      placeholderData: (previous, previousQuery) => (previousQuery?.queryKey.includes(type) ? previous : undefined),
    },
  );
}

/** URL of a line attachment (buyers, sellers and staff within their scope). */
export const orderLineAttachmentPath = (supplierOrderNumber: string, lineId: number, attachmentId: number) =>
  `/v1/SupplierOrders/${encodeURIComponent(supplierOrderNumber)}/lines/${lineId}/attachments/${attachmentId}`;

/** URL of a supplier order's printable PDF (the document the supplier got), for the buyer and staff. */
export const orderPdfPath = (customerOrderNumber: string, supplierOrderNumber: string) =>
  `/v1/CustomerOrders/${encodeURIComponent(customerOrderNumber)}/SupplierOrders/${encodeURIComponent(supplierOrderNumber)}/Pdf`;
