import { api } from './client';
import { unwrap } from './problem';
import type { components } from './schema';

export type QuickOrderResponse = components['schemas']['QuickOrderResponse'];
export type QuickOrderLine = QuickOrderResponse['lines'][number];
export interface QuickOrderInputLine {
  articleNumber: string;
  quantity: number;
  supplierBusinessPartnerNo?: string;
  productInstanceId?: string;
}

/** The quick-order calls: preview pasted text or a file, confirm the chosen lines. */
export const quickOrderApi = {
  defaultCartId: async (): Promise<number> => unwrap(await api.GET('/v1/MultiCarts/Default')).id,
  previewText: async (cartId: number, text: string): Promise<QuickOrderResponse> =>
    unwrap(
      await api.POST('/v1/MultiCarts/{id}/QuickOrder', {
        params: { path: { id: cartId } },
        body: { text, confirm: false },
      }),
    ),
  previewFile: async (cartId: number, file: File): Promise<QuickOrderResponse> => {
    const form = new FormData();
    form.append('file', file, file.name);
    return unwrap(
      await api.POST('/v1/MultiCarts/{id}/QuickOrder/File', {
        params: { path: { id: cartId } },
        body: form as never,
        bodySerializer: (body: unknown) => body as FormData,
      }),
    );
  },
  confirm: async (cartId: number, lines: QuickOrderInputLine[]): Promise<QuickOrderResponse> =>
    unwrap(
      await api.POST('/v1/MultiCarts/{id}/QuickOrder', {
        params: { path: { id: cartId } },
        body: { lines, confirm: true },
      }),
    ),
};
