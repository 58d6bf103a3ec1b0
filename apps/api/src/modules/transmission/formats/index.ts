import type { SupplierOrderDocument } from '../transmission.types.ts';
import { pdfOrderDocument } from './pdf-order.ts';
import { edifactD96A, edifactD97A } from './edifact-orders.ts';

export const orderDocuments: SupplierOrderDocument[] = [pdfOrderDocument, edifactD96A, edifactD97A];

export function documentFor(formatId: number): SupplierOrderDocument | undefined {
  return orderDocuments.find((d) => d.formatId === formatId);
}
