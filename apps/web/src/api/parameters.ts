import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CustomParameterValueInput } from '@shk/contracts';
import { api } from './client';
import { expectStatus, unwrap } from './problem';
import { queryKeys } from './query-keys';
import type { components } from './schema';

/** Response types: the generated OpenAPI types (docs/conventions.md, "DTO types in the web"). */
type CustomParameter = components['schemas']['CustomParameter'];
export type CustomParameterSummary = components['schemas']['CustomParameterSummary'];
export type CustomParameterValue = components['schemas']['CustomParameterValue'];

/** Custom parameters (/parameter, §7): every call of the spec, administrators only. */
const KEY = 'custom-parameters';

export function useParameters() {
  return useQuery({
    queryKey: [KEY, 'list'],
    queryFn: async (): Promise<CustomParameterSummary[]> => unwrap(await api.GET('/v1/CustomParameter')),
  });
}

export function useParameter(key: string) {
  return useQuery({
    queryKey: [KEY, 'one', key],
    queryFn: async (): Promise<CustomParameter> =>
      unwrap(
        await api.GET('/v1/CustomParameter/{customParameterKey}', { params: { path: { customParameterKey: key } } }),
      ),
  });
}

/** The values table of /parameter/{key} (GET /v1/CustomParameter/{key}/values, the spec's call). */
export function useParameterValues(key: string) {
  return useQuery({
    queryKey: [KEY, 'values', key],
    queryFn: async (): Promise<CustomParameterValue[]> =>
      unwrap(
        await api.GET('/v1/CustomParameter/{customParameterKey}/values', {
          params: { path: { customParameterKey: key } },
        }),
      ),
  });
}

export function useValueMutations(key: string) {
  const client = useQueryClient();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: [KEY] });
    // The SPA reads public values by key (limits, tooltips): they change with the next read.
    await client.invalidateQueries({ queryKey: queryKeys.configurationValue(key) });
  };
  const path = { customParameterKey: key };
  return {
    add: useMutation({
      mutationFn: async (body: CustomParameterValueInput) =>
        unwrap(await api.POST('/v1/CustomParameter/{customParameterKey}/values', { params: { path }, body })),
      onSuccess: refresh,
    }),
    update: useMutation({
      mutationFn: async ({ id, body }: { id: number; body: CustomParameterValueInput }) =>
        unwrap(
          await api.PUT('/v1/CustomParameter/{customParameterKey}/values/{id}', {
            params: { path: { ...path, id } },
            body,
          }),
        ),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: async (id: number) =>
        expectStatus(
          await api.DELETE('/v1/CustomParameter/{customParameterKey}/values/{id}', {
            params: { path: { ...path, id } },
          }),
          204,
        ),
      onSuccess: refresh,
    }),
  };
}
