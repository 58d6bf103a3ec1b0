/**
 * Query keys. Reads that depend on the current business partner live under ['bp', bpNumber, …] so that
 * switching the partner never shows another partner's cached data (spec: reads cached per partner).
 */
export const queryKeys = {
  userProfile: ['userProfile'] as const,
  apiVersion: ['apiVersion'] as const,
  configurationValue: (key: string) => ['configurationValue', key] as const,
  /** Prefix for everything scoped to a business partner ('none' for users without one). */
  partnerScope: (bpNumber: string | null) => ['bp', bpNumber ?? 'none'] as const,
  partnerScoped: (bpNumber: string | null, ...parts: readonly unknown[]) =>
    ['bp', bpNumber ?? 'none', ...parts] as const,
};
