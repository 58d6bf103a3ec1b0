import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ReportGenerationStatus, limits, timings } from '@shk/contracts';
import { currentAccessToken } from './client';
import { ApiError, isProblem } from './problem';
import type { components } from './schema';

/** Response types: the generated OpenAPI types (docs/conventions.md, "DTO types in the web"). */
type Report = components['schemas']['Report'];

export interface ReportPage {
  items: Report[];
  currentPage: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
}

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const token = await currentAccessToken();
  const response = await fetch(path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(response.status, isProblem(data) ? data : null);
  return data as T;
}

export const isUnfinished = (r: Report) =>
  r.reportGenerationStatusId === ReportGenerationStatus.Pending ||
  r.reportGenerationStatusId === ReportGenerationStatus.InProgress;

export function useReportTypes() {
  return useQuery({
    queryKey: ['reports', 'types'],
    staleTime: Infinity,
    queryFn: () => call<{ id: number; name: string }[]>('GET', '/v1/Reports/ReportTypes'),
  });
}

/** The list polls every 3000 ms while any report on the page is pending or in progress, and stops then. */
export function useReports(page: number) {
  return useQuery({
    queryKey: ['reports', 'list', page],
    placeholderData: keepPreviousData,
    queryFn: () => call<ReportPage>('GET', `/v1/Reports?Page=${page}&PageSize=${limits.reportsPageSize}`),
    refetchInterval: (query) => (query.state.data?.items.some(isUnfinished) ? timings.reportRefreshMs : false),
  });
}

export function useGenerateReport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { reportType: number; startDate: string; endDate: string; format: 'xlsx' | 'csv' }) =>
      call<Report>('POST', '/v1/Reports/Generate', body),
    onSettled: () => client.invalidateQueries({ queryKey: ['reports', 'list'] }),
  });
}
