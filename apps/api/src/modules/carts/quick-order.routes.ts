import {
  QuickOrderRequest,
  QuickOrderResponse,
  Role,
  cartMessages,
  quickOrderMessages,
  IdParams,
} from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { currentPartnerOf } from '../../http/auth.ts';
import { badRequest, HttpProblem } from '../../http/problem.ts';
import { onlyIdsCart, idParam } from './ids-cart-scope.ts';
import type { OfferCatalog } from './offer-catalog.ts';
import { parseCsvFile, parsePastedText, parseXlsxFile } from './quick-order.parse.ts';
import { QuickOrderService, type QuickOrderLine } from './quick-order.service.ts';

const buyer = [Role.Buyer] as const;
const CartParams = IdParams;
const MAX_FILE_BYTES = 5 * 1024 * 1024;

export function quickOrderRoutes(offers: OfferCatalog) {
  return async function registerQuickOrderRoutes(app: App, { db }: AppDeps) {
    const service = new QuickOrderService(db, offers);

    app.post(
      '/v1/MultiCarts/:id/QuickOrder',
      {
        config: { ids: onlyIdsCart(db, idParam), roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary:
            'Schnellerfassung: Zeilen prüfen (Vorschau) und nach Bestätigung alle auf einmal in den Warenkorb legen',
          params: CartParams,
          body: QuickOrderRequest,
          response: { 200: QuickOrderResponse },
        },
      },
      async (request) => {
        const body = request.body;
        const lines: QuickOrderLine[] = body.lines?.length
          ? body.lines.map((l, k) => ({
              line: k + 1,
              input: `${l.articleNumber};${l.quantity}${l.supplierBusinessPartnerNo ? `;${l.supplierBusinessPartnerNo}` : ''}`,
              articleNumber: l.articleNumber,
              quantity: l.quantity,
              supplier: l.supplierBusinessPartnerNo ?? null,
              productInstanceId: l.productInstanceId ?? null,
              error: null,
            }))
          : parsePastedText(body.text ?? '');
        return service.run(currentPartnerOf(request), request.params.id, lines, body.confirm);
      },
    );

    app.post(
      '/v1/MultiCarts/:id/QuickOrder/File',
      {
        config: { ids: onlyIdsCart(db, idParam), roles: buyer },
        schema: {
          tags: ['Warenkörbe'],
          summary: 'Schnellerfassung aus einer CSV- oder XLSX-Datei (Feld „file“): Vorschau der Zeilen',
          consumes: ['multipart/form-data'],
          params: CartParams,
          response: { 200: QuickOrderResponse },
        },
      },
      async (request) => {
        if (!request.isMultipart()) throw badRequest(quickOrderMessages.fileFormat);
        const file = await request.file({ limits: { fileSize: MAX_FILE_BYTES } });
        if (!file) throw badRequest(quickOrderMessages.fileFormat);
        // busboy stops at the limit while streaming: a larger file is refused with the size, not the format.
        const content = await file.toBuffer().catch((error: { code?: string }) => {
          if (error.code === 'FST_REQ_FILE_TOO_LARGE')
            throw new HttpProblem(400, cartMessages.maxFileSize(MAX_FILE_BYTES / 1024 / 1024), { type: 'maxFileSize' });
          throw badRequest(quickOrderMessages.fileFormat);
        });
        const isXlsx = content[0] === 0x50 && content[1] === 0x4b;
        if (!isXlsx && !/\.(csv|txt)$/i.test(file.filename) && !/text|csv/.test(file.mimetype)) {
          throw badRequest(quickOrderMessages.fileFormat);
        }
        let lines;
        try {
          lines = isXlsx ? await parseXlsxFile(content) : parseCsvFile(content);
        } catch {
          throw badRequest(quickOrderMessages.fileFormat);
        }
        return service.run(currentPartnerOf(request), request.params.id, lines, false);
      },
    );
  };
}
