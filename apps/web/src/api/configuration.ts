import { useQuery } from '@tanstack/react-query';
import { FeatureSettingKey, featureSettingDefaults } from '@shk/contracts';
import { api } from './client';
import { unwrap } from './problem';
import { queryKeys } from './query-keys';
import type { ConfigurationValue } from './types';

/** A configuration value by key (GET /v1/ConfigurationValues/{key}); settings change rarely, so cache long. */
export function useConfigurationValue(key: FeatureSettingKey) {
  return useQuery({
    queryKey: queryKeys.configurationValue(key),
    queryFn: async (): Promise<ConfigurationValue> =>
      unwrap(await api.GET('/v1/ConfigurationValues/{key}', { params: { path: { key } } })),
    staleTime: 10 * 60_000,
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
    allowedExtensions: formatList.split(',').map((f) => f.trim()).filter(Boolean),
    maxFileCount: Number(count.data?.value ?? defaultOf(FeatureSettingKey.AttachmentsMaxFilesCount)) || 1,
    maxFileSizeMb: Number(size.data?.value ?? defaultOf(FeatureSettingKey.AttachmentsMaxFileSize)) || 25,
  };
}
