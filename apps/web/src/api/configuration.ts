import { useQuery, type Query, type QueryClient } from '@tanstack/react-query';
import { FeatureSettingKey, featureSettingDefaults } from '@shk/contracts';
import { api } from './client';
import { unwrap } from './problem';
import { queryKeys } from './query-keys';
import type { ConfigurationValue } from './types';

const configurationQuery = (key: FeatureSettingKey) => ({
  queryKey: queryKeys.configurationValue(key),
  queryFn: async (): Promise<ConfigurationValue> =>
    unwrap(await api.GET('/v1/ConfigurationValues/{key}', { params: { path: { key } } })),
});

/**
 * When the page being opened read a value with its own data (prefetchConfigurationValues), by key. A screen that
 * mounts within OPENING_MS of that read uses its answer instead of reading the value a second time: on a slow
 * network the second read came after the page's code and was the last request before the content (Lighthouse's LCP).
 */
const readForOpening = new Map<FeatureSettingKey, number>();
export const OPENING_MS = 5_000;

/** Starts reading configuration values the page about to render shows (routes.tsx, a route's `prefetch`). */
export function prefetchConfigurationValues(queryClient: QueryClient, keys: readonly FeatureSettingKey[]): void {
  for (const key of keys) {
    readForOpening.set(key, Date.now());
    void queryClient.prefetchQuery({ ...configurationQuery(key), staleTime: 0 });
  }
}

/**
 * Whether a screen mounting with the value reads it again: yes, unless its cached answer comes from the opening
 * page's own read (prefetchConfigurationValues) and that read started less than OPENING_MS ago.
 */
export function readsAgainOnMount(key: FeatureSettingKey, query: Pick<Query, 'state'>, now = Date.now()): boolean {
  const readAt = readForOpening.get(key);
  return readAt === undefined || now - readAt >= OPENING_MS || query.state.dataUpdatedAt < readAt;
}

/**
 * A configuration value by key (GET /v1/ConfigurationValues/{key}). An administrator's change on /parameter
 * is effective on the next request, also in tabs that are already open: the value is never
 * considered fresh, so every screen that uses it reads it again when it mounts and when the tab regains
 * focus (the cached value is shown meanwhile) — except right after the opening page read it itself
 * (readsAgainOnMount: that read is the page's request). The API enforces the limits itself on every request anyway.
 */
export function useConfigurationValue(key: FeatureSettingKey) {
  return useQuery({
    ...configurationQuery(key),
    staleTime: 0,
    refetchOnMount: (query) => readsAgainOnMount(key, query),
    refetchOnWindowFocus: true,
  });
}

const defaultOf = (key: FeatureSettingKey) => featureSettingDefaults.find((s) => s.key === key)?.value ?? '';

/** Cart-item attachment limits from the configuration, with the spec's defaults while loading or on failure. */
export function useAttachmentLimits() {
  const formats = useConfigurationValue(FeatureSettingKey.AttachmentsAllowedFileFormats);
  const count = useConfigurationValue(FeatureSettingKey.AttachmentsMaxFilesCount);
  const size = useConfigurationValue(FeatureSettingKey.AttachmentsMaxFileSize);
  const formatList = formats.data?.value ?? defaultOf(FeatureSettingKey.AttachmentsAllowedFileFormats);
  return {
    allowedExtensions: formatList
      .split(',')
      .map((f) => f.trim())
      .filter(Boolean),
    maxFileCount: Number(count.data?.value ?? defaultOf(FeatureSettingKey.AttachmentsMaxFilesCount)) || 1,
    maxFileSizeMb: Number(size.data?.value ?? defaultOf(FeatureSettingKey.AttachmentsMaxFileSize)) || 25,
  };
}

/**
 * Supplier-order document limits (spec §5: default 10 files of 25 MB each, all formats, overridable by
 * configuration values); the API enforces the same settings on upload.
 */
export function useSupplierOrderDocumentLimits() {
  const count = useConfigurationValue(FeatureSettingKey.SupplierOrderDocumentsMaxFilesCount);
  const size = useConfigurationValue(FeatureSettingKey.SupplierOrderDocumentsMaxFileSize);
  return {
    allowedExtensions: [] as string[],
    maxFileCount: Number(count.data?.value ?? defaultOf(FeatureSettingKey.SupplierOrderDocumentsMaxFilesCount)) || 10,
    maxFileSizeMb: Number(size.data?.value ?? defaultOf(FeatureSettingKey.SupplierOrderDocumentsMaxFileSize)) || 25,
  };
}
