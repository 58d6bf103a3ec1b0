import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { limits, RelationStatus } from '@shk/contracts';
import { api } from './client';
import { downloadApiFile } from './download';
import { ApiError, isProblem, unwrap } from './problem';
import { queryKeys } from './query-keys';
import { prefetchPartnerQuery, usePartnerQuery, useUserProfile } from './session';
import type { components } from './schema';
import type { UserProfile } from './types';

/**
 * Supplier–customer relations (seller-staff-side.md §2–§8): the reads and writes of 'Meine Lieferanten'
 * (buyer), 'Meine Kunden' (seller) and 'Geschäftspartner' (staff). Every read is cached per current
 * business partner; every write refreshes all relation reads of that partner.
 */
type Schemas = components['schemas'];
export type Relation = Schemas['SupplierCustomerRelation'];
export type RelationSupplier = Schemas['RelationSupplier'];
export type SupplierSummary = Schemas['SupplierSummary'];
export type SupplierCompanyInfo = Schemas['SupplierCompanyInfo'];
export type RelationStatusChange = Schemas['RelationStatusChange'];
export type PagedRelations = Schemas['PagedSupplierCustomerRelations'];
export type CreateRelationBody = NonNullable<
  NonNullable<import('./schema').paths['/v1/SupplierCustomers']['post']['requestBody']>['content']['application/json']
>;
export type UpdateRelationBody =
  import('./schema').paths['/v1/SupplierCustomers/{id}']['put']['requestBody']['content']['application/json'];

/** Key prefix of every relation read of a partner (invalidated after each write). */
const RELATIONS = 'relations';

export interface RelationListFilter {
  /** Empty: the server's default (the four statuses of the buyer and seller lists). */
  statusIds: readonly number[];
  name: string;
}

/** Buyer: the current partner's suppliers (status, then name); seller: the own supplier's customers (by name). */
export function useRelations(filter: RelationListFilter, options: { enabled?: boolean } = {}) {
  return usePartnerQuery<PagedRelations>(relationListKey(filter), relationList(filter), {
    enabled: options.enabled,
    placeholderData: (previous) => previous,
  });
}

const relationListKey = (filter: RelationListFilter) =>
  [RELATIONS, 'list', { statusIds: filter.statusIds, name: filter.name.trim() }] as const;

const relationList = (filter: RelationListFilter) => {
  const name = filter.name.trim();
  return async (): Promise<PagedRelations> =>
    unwrap(
      await api.GET('/v1/SupplierCustomers', {
        params: {
          query: {
            ...(filter.statusIds.length ? { RelationStatusIds: filter.statusIds.join(',') } : {}),
            ...(name ? { Name: name } : {}),
            PageSize: limits.platformOperatorRelationPageSize,
            Page: 1,
          },
        },
      }),
    );
};

const suppliersWithoutRelationKey = [RELATIONS, 'suppliersWithoutRelation'] as const;
const suppliersWithoutRelation = async (): Promise<SupplierSummary[]> =>
  unwrap(await api.GET('/v1/SupplierCustomers/SuppliersWithoutRelation'));

/** Suppliers the buyer's current partner has no relation with yet (the add-supplier list). */
export function useSuppliersWithoutRelation(options: { enabled?: boolean } = {}) {
  return usePartnerQuery<SupplierSummary[]>(suppliersWithoutRelationKey, suppliersWithoutRelation, options);
}

/**
 * The buyer home page's supplier reads (its approved suppliers and those without a relation: BuyerHomeSuppliers),
 * started with the profile (routes.tsx, the home route's `prefetch`) instead of after the page's code and first render.
 * Same keys as useRelations / useSuppliersWithoutRelation, under the client's default stale time.
 */
export function prefetchBuyerHomeSuppliers(queryClient: QueryClient, profile: UserProfile): void {
  const approved: RelationListFilter = { statusIds: [RelationStatus.Approved], name: '' };
  void prefetchPartnerQuery(queryClient, profile, relationListKey(approved), relationList(approved));
  void prefetchPartnerQuery(queryClient, profile, suppliersWithoutRelationKey, suppliersWithoutRelation);
}

export interface StaffRelationFilter {
  statusIds: readonly number[];
  supplierBpNumber: string;
  customerBpNumber: string;
}

/** Staff: every relation, filtered by status (all six by default) and partner numbers. */
export function useStaffRelations(filter: StaffRelationFilter) {
  const supplier = filter.supplierBpNumber.trim();
  const customer = filter.customerBpNumber.trim();
  return usePartnerQuery<PagedRelations>(
    [RELATIONS, 'staff', { statusIds: filter.statusIds, supplier, customer }],
    async () =>
      unwrap(
        await api.GET('/v1/PlatformOperator/SupplierCustomers', {
          params: {
            query: {
              ...(filter.statusIds.length ? { RelationsStatusId: filter.statusIds.join(',') } : {}),
              ...(supplier ? { SupplierBpNumber: supplier } : {}),
              ...(customer ? { CustomerBpNumber: customer } : {}),
              PageSize: limits.platformOperatorRelationPageSize,
            },
          },
        }),
      ),
    { placeholderData: (previous) => previous },
  );
}

/** Staff: the audit trail (who changed the status when, old → new). */
export function useRelationStatusChanges(id: number | null) {
  return usePartnerQuery<RelationStatusChange[]>(
    [RELATIONS, 'statusChanges', id],
    async () =>
      unwrap(
        await api.GET('/v1/PlatformOperator/SupplierCustomers/{id}/StatusChanges', { params: { path: { id: id! } } }),
      ),
    { enabled: id !== null, staleTime: 0 },
  );
}

/** Company data and settings of a supplier (supplier information dialog). */
export function useSupplierCompanyInfo(bpNumber: string | null) {
  return usePartnerQuery<SupplierCompanyInfo>(
    ['suppliers', 'companyInfo', bpNumber],
    async () =>
      unwrap(
        await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}/CompanyInfo', {
          params: { path: { supplierBusinessPartnerNo: bpNumber! } },
        }),
      ),
    { enabled: bpNumber !== null },
  );
}

/** Refreshes every relation read of the current partner (lists, suppliers without relation, trails). */
function useInvalidateRelations() {
  const client = useQueryClient();
  const profile = useUserProfile();
  const bpNumber = profile.data?.currentBpNumber ?? null;
  return () => client.invalidateQueries({ queryKey: queryKeys.partnerScoped(bpNumber, RELATIONS) });
}

/** Buyer: request a relation (new, or again after a rejection). 201 answers the supplier. */
export function useRequestRelation() {
  const invalidate = useInvalidateRelations();
  return useMutation({
    mutationFn: async (body: CreateRelationBody): Promise<RelationSupplier> => {
      const result = await api.POST('/v1/SupplierCustomers', { body });
      if (result.response.status !== 201)
        throw new ApiError(result.response.status, isProblem(result.error) ? result.error : null);
      return result.data as RelationSupplier;
    },
    onSettled: invalidate,
  });
}

/** Seller (and administrator): status, comments and customer number of a relation. */
export function useUpdateRelation() {
  const invalidate = useInvalidateRelations();
  return useMutation({
    mutationFn: async ({ id, body }: { id: number; body: UpdateRelationBody }): Promise<Relation> =>
      unwrap(await api.PUT('/v1/SupplierCustomers/{id}', { params: { path: { id } }, body })),
    onSettled: invalidate,
  });
}

/** Buyer answers 'Kundennummer angefragt'; seller corrects the number. */
export function useSetCustomerNumber() {
  const invalidate = useInvalidateRelations();
  return useMutation({
    mutationFn: async ({ id, customerNumber }: { id: number; customerNumber: string }): Promise<Relation> =>
      unwrap(
        await api.PUT('/v1/SupplierCustomers/{id}/SupplierCustomerNumber/{supplierCustomerNumber}', {
          params: { path: { id, supplierCustomerNumber: customerNumber } },
        }),
      ),
    onSettled: invalidate,
  });
}

/** Downloads a supplier's new-customer form (PDF) under the file name the server gives. */
export function downloadOnboardingFormTemplate(bpNumber: string): Promise<void> {
  return downloadApiFile(
    `/v1/SupplierOnboardingFormTemplates/${encodeURIComponent(bpNumber)}`,
    'Neukundenformular.pdf',
  );
}
