import { beforeAll, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { FeatureSettingKey } from '@shk/contracts';

let configuration: typeof import('./configuration');
const requests: string[] = [];

beforeAll(async () => {
  // The API client reads the page's origin when its module loads.
  vi.stubGlobal('window', { location: { origin: 'http://portal.test' } });
  vi.stubGlobal('fetch', async (input: Request) => {
    requests.push(new URL(input.url).pathname);
    return new Response(JSON.stringify({ key: 'x', value: 'v' }), { headers: { 'content-type': 'application/json' } });
  });
  configuration = await import('./configuration');
});

const answered = (dataUpdatedAt: number) => ({ state: { dataUpdatedAt } }) as never;

describe('configuration values read again on every mount, except right after the opening page read them', () => {
  it('reads a value again on mount when no page read it for its opening', () => {
    expect(configuration.readsAgainOnMount(FeatureSettingKey.VideoHelpWidgetScriptUrl, answered(Date.now()))).toBe(
      true,
    );
  });

  it('uses the opening read for a mount within the window, reads again after it and for older answers', async () => {
    const queryClient = new QueryClient();
    const key = FeatureSettingKey.NoteOfUseAllowedSuppliers;
    const before = Date.now();
    configuration.prefetchConfigurationValues(queryClient, [key]);
    await vi.waitFor(() => expect(requests).toContain(`/v1/ConfigurationValues/${key}`));
    await vi.waitFor(() => expect(queryClient.getQueryData(['configurationValue', key])).toBeDefined());
    const query = queryClient.getQueryCache().find({ queryKey: ['configurationValue', key] })!;
    expect(configuration.readsAgainOnMount(key, query)).toBe(false);
    // Later than the window after the opening read: read again.
    expect(configuration.readsAgainOnMount(key, query, before + configuration.OPENING_MS + 1)).toBe(true);
    // An answer older than the opening read (a value cached before it): read again.
    expect(configuration.readsAgainOnMount(key, answered(before - 1))).toBe(true);
  });
});
