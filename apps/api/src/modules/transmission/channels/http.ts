import { CommunicationProtocol } from '@shk/contracts';
import type { RequestInit } from 'undici';
import { PermanentTransmissionError, type OrderTransmitter } from '../transmission.types.ts';
import type { OutboundPolicy } from '../outbound.ts';
import { requireWorkflow } from './connection.ts';

/** POST through the outbound policy (allowed targets only, no redirects); a non-2xx answer is an error. */
async function post(policy: OutboundPolicy, url: string, init: RequestInit, timeoutMs: number) {
  const response = await policy.fetch(url, init, timeoutMs);
  if (!response.ok) {
    const body = (await response.text().catch(() => '')).slice(0, 200);
    throw new Error(`HTTP ${response.status} von ${url}${body ? `: ${body}` : ''}`);
  }
  return response;
}

/**
 * Http (4): each document as the raw request body (its media type) to the workflow's base URL, Basic
 * auth from the workflow, header Idempotency-Key stable per order and document. 2xx = sent.
 */
export function httpTransmitter(policy: OutboundPolicy): OrderTransmitter {
  return {
    protocolId: CommunicationProtocol.Http,
    async transmit({ order, target, documents, idempotencyKey }) {
      const workflow = requireWorkflow(target, 'HTTP');
      if (!workflow.baseUrl) throw new PermanentTransmissionError(`Workflow „${workflow.name}“ hat keine URL`);
      const auth: Record<string, string> =
        workflow.username && workflow.password
          ? { authorization: `Basic ${Buffer.from(`${workflow.username}:${workflow.password}`).toString('base64')}` }
          : {};
      for (const document of documents)
        await post(
          policy,
          workflow.baseUrl,
          {
            method: 'POST',
            body: new Uint8Array(document.content),
            headers: {
              ...auth,
              'content-type': document.mediaType,
              'content-disposition': `attachment; filename="${document.fileName}"`,
              'idempotency-key': `${idempotencyKey}-${document.formatId}`,
              'x-order-number': order.supplierOrderNumber,
            },
          },
          workflow.timeoutMs,
        );
      return { remoteNames: [workflow.baseUrl], messageId: idempotencyKey };
    },
  };
}

/**
 * Api (6): a JSON envelope (order number, test flag, documents base64) to the workflow's base URL with
 * the workflow's secret as bearer token; same Idempotency-Key rule. A returned `orderId` is kept as
 * the supplier's external order id.
 */
export function apiTransmitter(policy: OutboundPolicy): OrderTransmitter {
  return {
    protocolId: CommunicationProtocol.Api,
    async transmit({ order, target, documents, idempotencyKey }) {
      const workflow = requireWorkflow(target, 'API');
      if (!workflow.baseUrl) throw new PermanentTransmissionError(`Workflow „${workflow.name}“ hat keine URL`);
      const response = await post(
        policy,
        workflow.baseUrl,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'idempotency-key': idempotencyKey,
            ...(workflow.password ? { authorization: `Bearer ${workflow.password}` } : {}),
          },
          body: JSON.stringify({
            supplierOrderNumber: order.supplierOrderNumber,
            customerOrderNumber: order.customerOrderNumber,
            supplierCustomerNumber: order.buyer.supplierCustomerNumber,
            isTest: order.isTest,
            documents: documents.map((d) => ({
              fileName: d.fileName,
              mediaType: d.mediaType,
              content: d.content.toString('base64'),
            })),
          }),
        },
        workflow.timeoutMs,
      );
      const answer = (await response.json().catch(() => ({}))) as { orderId?: unknown };
      return {
        remoteNames: [workflow.baseUrl],
        messageId: idempotencyKey,
        externalOrderId: typeof answer.orderId === 'string' ? answer.orderId : undefined,
      };
    },
  };
}
