import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DashboardGrouping } from '@shk/contracts';
import { api } from './client';
import { unwrap } from './problem';
import type { components } from './schema';

/** Response types: the generated OpenAPI types (docs/conventions.md, "DTO types in the web"). */
export type DashboardFigure = components['schemas']['DashboardFigure'];

export interface DashboardFilter {
  start: string;
  end: string;
  grouping: DashboardGrouping;
  supplier: string | null;
  statusId: number | null;
}

export type FigureKey = 'count' | 'sla' | 'sum' | 'avg';
const paths = {
  count: 'SupplierOrdersCount',
  sla: 'SupplierOrdersSla',
  sum: 'SupplierOrdersSumNetValue',
  avg: 'SupplierOrdersAvgNetValue',
} as const;

/**
 * One figure. 'all' uses the call without seller. The query's abort signal goes to fetch, so a filter
 * change aborts the previous request and the API cancels its database query.
 */
export function useFigure(figure: FigureKey, f: DashboardFilter, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', figure, f],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }): Promise<DashboardFigure> => {
      const query = {
        StartDate: f.start,
        EndDate: f.end,
        Grouping: f.grouping,
        ...(f.statusId ? { StatusId: f.statusId } : {}),
      };
      if (f.supplier)
        return unwrap(
          await api.GET(`/v1/Dashboard/${paths[figure]}BySeller`, {
            params: { query: { ...query, SupplierBpNumber: f.supplier } },
            signal,
          }),
        ) as DashboardFigure;
      return unwrap(await api.GET(`/v1/Dashboard/${paths[figure]}`, { params: { query }, signal })) as DashboardFigure;
    },
  });
}

export interface TopSupplier {
  bpNumber: string;
  name: string;
  count: number;
  netSum: number;
  sla: number | null;
}

export function useTopSuppliers(f: DashboardFilter, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', 'top', f.start, f.end, f.statusId],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) =>
      unwrap(
        await api.GET('/v1/Dashboard/TopSuppliers', {
          params: { query: { StartDate: f.start, EndDate: f.end, ...(f.statusId ? { StatusId: f.statusId } : {}) } },
          signal,
        }),
      ) as { items: TopSupplier[]; slaWindowHours: number },
  });
}

/** Up to 100 suppliers for the filter (spec §9: dashboard supplier dropdown 100). */
export function useSupplierOptions() {
  return useQuery({
    queryKey: ['dashboard', 'suppliers'],
    staleTime: 5 * 60_000,
    queryFn: async () => {
      const page = unwrap(await api.GET('/v1/Suppliers', { params: { query: { Page: 1, PageSize: 100 } } }));
      return page.items.map((s) => ({
        value: s.supplierBusinessPartnerNo,
        label: `${s.name} (${s.supplierBusinessPartnerNo})`,
      }));
    },
  });
}
