import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CommunicationProtocol, workflowProtocols } from '@shk/contracts';
import type {
  As2Encryption,
  As2MdnMode,
  SupplierSettingsInput,
  supplierSortFields,
  WorkflowInput,
} from '@shk/contracts';
import { api, currentAccessToken } from './client';
import { ApiError, expectStatus, isProblem, unwrap } from './problem';
import type { components } from './schema';

/** Response types: the generated OpenAPI types (docs/conventions.md, "DTO types in the web"). */
type SupplierChange = components['schemas']['SupplierChange'];
type As2OwnCertificate = components['schemas']['As2OwnCertificate'];
export type CertificateInfo = components['schemas']['CertificateInfo'];
type CertificateWarning = components['schemas']['CertificateWarning'];
type SupplierListItem = components['schemas']['SupplierListItem'];
export type SupplierSettings = components['schemas']['SupplierSettings'];
export type WorkflowTestResult = components['schemas']['WorkflowTestResult'];

/** Supplier management (/admin): reads for staff, writes for administrators (seller-staff-side.md §7). */
const ADMIN = 'admin-suppliers';

export interface SupplierListFilter {
  page: number;
  pageSize: number;
  name: string;
  statusId: number | null;
  sortBy: (typeof supplierSortFields)[number];
  sortDirection: 'asc' | 'desc';
}

export interface PagedSuppliers {
  items: SupplierListItem[];
  currentPage: number;
  pageSize: number;
  totalCount: number;
  totalPages: number;
}

export function useSupplierList(f: SupplierListFilter) {
  return useQuery({
    queryKey: [ADMIN, 'list', f],
    queryFn: async (): Promise<PagedSuppliers> =>
      unwrap(
        await api.GET('/v1/Suppliers', {
          params: {
            query: {
              Page: f.page,
              PageSize: f.pageSize,
              Name: f.name || undefined,
              StatusId: f.statusId ?? undefined,
              SortBy: f.sortBy,
              SortDirection: f.sortDirection,
            },
          },
        }),
      ) as PagedSuppliers,
    placeholderData: keepPreviousData,
  });
}

export function useSupplier(bp: string | null) {
  return useQuery({
    queryKey: [ADMIN, 'one', bp],
    enabled: Boolean(bp),
    queryFn: async (): Promise<SupplierSettings> =>
      unwrap(
        await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}', {
          params: { path: { supplierBusinessPartnerNo: bp! } },
        }),
      ) as SupplierSettings,
  });
}

export function useSupplierChanges(bp: string | null) {
  return useQuery({
    queryKey: [ADMIN, 'changes', bp],
    enabled: Boolean(bp),
    queryFn: async (): Promise<SupplierChange[]> =>
      unwrap(
        await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}/Changes', {
          params: { path: { supplierBusinessPartnerNo: bp! } },
        }),
      ) as SupplierChange[],
  });
}

export interface NamedId {
  id: number;
  name: string;
}
export function useProtocols() {
  return useQuery({
    queryKey: [ADMIN, 'protocols'],
    staleTime: Infinity,
    queryFn: async (): Promise<NamedId[]> => unwrap(await api.GET('/v1/Suppliers/CommunicationProtocols')),
  });
}
export function useDataFormats() {
  return useQuery({
    queryKey: [ADMIN, 'formats'],
    staleTime: Infinity,
    queryFn: async (): Promise<NamedId[]> => unwrap(await api.GET('/v1/Suppliers/CommunicationDataFormats')),
  });
}

/** The add flow's check (exists / not found / candidate); errors carry the spec's titles. */
export async function checkCandidate(bp: string) {
  return unwrap(
    await api.GET('/v1/Suppliers/Candidates/{supplierBusinessPartnerNo}', {
      params: { path: { supplierBusinessPartnerNo: bp } },
    }),
  );
}

export function useSaveSupplier(isNew: boolean) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: SupplierSettingsInput): Promise<SupplierSettings> =>
      (isNew
        ? unwrap(await api.POST('/v1/Suppliers', { body: body as never }))
        : unwrap(await api.PUT('/v1/Suppliers', { body: body as never }))) as SupplierSettings,
    onSuccess: () => client.invalidateQueries({ queryKey: [ADMIN] }),
  });
}

const fileForm = (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
};

export function useSupplierFiles(bp: string) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: [ADMIN] });
  const path = { supplierBusinessPartnerNo: bp };
  return {
    uploadLogo: useMutation({
      mutationFn: async (file: File) =>
        unwrap(
          await api.POST('/v1/Suppliers/{supplierBusinessPartnerNo}/logo', {
            params: { path },
            body: fileForm(file) as never,
            bodySerializer: (body: unknown) => body as FormData,
          }),
        ),
      onSuccess: refresh,
    }),
    deleteLogo: useMutation({
      mutationFn: async () =>
        expectStatus(await api.DELETE('/v1/Suppliers/{supplierBusinessPartnerNo}/logo', { params: { path } }), 204),
      onSuccess: refresh,
    }),
    uploadTemplate: useMutation({
      mutationFn: async (file: File) =>
        unwrap(
          await api.POST('/v1/SupplierOnboardingFormTemplates/{bpNumber}', {
            params: { path: { bpNumber: bp } },
            body: fileForm(file) as never,
            bodySerializer: (body: unknown) => body as FormData,
          }),
        ),
      onSuccess: refresh,
    }),
    deleteTemplate: useMutation({
      mutationFn: async () =>
        expectStatus(
          await api.DELETE('/v1/SupplierOnboardingFormTemplates/{bpNumber}', { params: { path: { bpNumber: bp } } }),
          204,
        ),
      onSuccess: refresh,
    }),
  };
}

interface WorkflowOption {
  id: number;
  name: string;
}

/**
 * Connection profiles for FTP, SFTP and AS2 (GET /v1/Workflow?communicationProtocol). Until that list answers
 * (older API), the form falls back to entering the workflow id.
 */
export function useWorkflowOptions(protocol: number | undefined) {
  const needed =
    protocol !== undefined && (workflowProtocols.includes(protocol) || protocol === CommunicationProtocol.As2);
  const query = useQuery({
    queryKey: ['admin-workflows', protocol],
    enabled: needed,
    retry: false,
    queryFn: async (): Promise<WorkflowOption[]> => {
      const token = await currentAccessToken();
      const response = await fetch(`/v1/Workflow?communicationProtocol=${protocol}`, {
        headers: token ? { Authorization: `Bearer ${token}` } : {},
      });
      if (!response.ok) throw new Error(String(response.status));
      const body = (await response.json()) as WorkflowOption[] | { items: WorkflowOption[] };
      return Array.isArray(body) ? body : body.items;
    },
  });
  return {
    options: query.data?.map((w) => ({ value: String(w.id), label: `${w.name} (${w.id})` })) ?? null,
  };
}

/** The seller's own supplier: company info and the read-only interfaces panel of /profil. */
export function useSupplierCompanyInfo(bp: string) {
  return useQuery({
    queryKey: ['bp', bp, 'supplier-company-info'],
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}/CompanyInfo', {
          params: { path: { supplierBusinessPartnerNo: bp } },
        }),
      ),
  });
}
export function useSupplierInterfaces(bp: string) {
  return useQuery({
    queryKey: ['bp', bp, 'supplier-interfaces'],
    queryFn: async () =>
      unwrap(
        await api.GET('/v1/Suppliers/{supplierBusinessPartnerNo}/Interfaces', {
          params: { path: { supplierBusinessPartnerNo: bp } },
        }),
      ),
  });
}

/** Connection profiles (workflows) for administrators; secrets are write-only. */
export interface WorkflowView {
  id: number;
  name: string;
  communicationProtocol: number;
  host: string | null;
  port: number | null;
  userName: string | null;
  baseUrl: string | null;
  timeoutMs: number;
  secretKind: 'password' | 'privateKey' | null;
  hasSecret: boolean;
  /** SFTP: the host key pinned for the profile's host and port. */
  hostKey: components['schemas']['Workflow']['hostKey'];
  as2Encryption: As2Encryption;
  as2MdnMode: As2MdnMode;
  partnerCertificate: CertificateInfo | null;
}

/** AS2: our certificate (partners encrypt to it and verify our signatures) and certificates about to expire. */
export function useAs2Certificates(enabled: boolean) {
  const own = useQuery({
    queryKey: ['admin-workflows', 'as2-certificate'],
    enabled,
    queryFn: () => callApi<As2OwnCertificate>('GET', '/v1/As2/Certificate'),
  });
  const warnings = useQuery({
    queryKey: ['admin-workflows', 'certificate-warnings'],
    enabled,
    queryFn: () => callApi<CertificateWarning[]>('GET', '/v1/As2/CertificateWarnings'),
  });
  return { own, warnings };
}

async function callApi<T>(method: string, path: string, body?: unknown): Promise<T> {
  const token = await currentAccessToken();
  const response = await fetch(path, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const data: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, isProblem(data) ? data : null);
  return data as T;
}

export function useWorkflows() {
  return useQuery({
    queryKey: ['admin-workflows', 'all'],
    queryFn: () => callApi<WorkflowView[]>('GET', '/v1/Workflow'),
  });
}

export function useWorkflowMutations() {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ['admin-workflows'] });
  return {
    save: useMutation({
      mutationFn: ({ id, body }: { id: number | null; body: WorkflowInput }) =>
        id === null
          ? callApi<WorkflowView>('POST', '/v1/Workflow', body)
          : callApi<WorkflowView>('PUT', `/v1/Workflow/${id}`, body),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: number) => callApi<null>('DELETE', `/v1/Workflow/${id}`),
      onSuccess: refresh,
    }),
    test: useMutation({
      mutationFn: (id: number) => callApi<WorkflowTestResult>('POST', `/v1/Workflow/${id}/Test`),
    }),
    /** Confirms the fingerprint 'Verbindung testen' showed, or accepts a changed host key. */
    confirmHostKey: useMutation({
      mutationFn: ({ id, fingerprint }: { id: number; fingerprint: string }) =>
        callApi<WorkflowView>('PUT', `/v1/Workflow/${id}/HostKey`, { fingerprint }),
      onSuccess: refresh,
    }),
  };
}
