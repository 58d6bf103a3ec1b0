import { z } from 'zod';

/** German texts of order transmission (issue 9 A; the spec names 'Erneut senden' only, the rest is ours). */
export const transmissionMessages = {
  resendNotFailed: 'Nur Bestellungen mit dem Status „Versand fehlgeschlagen“ können erneut gesendet werden.',
  resendQueued: 'Die Bestellung wird erneut gesendet.',
  orderNotFound: 'Bestellung nicht gefunden',
  resendAction: 'Erneut senden',
} as const;

/** Outbox state of a supplier order's transmission. */
export const TransmissionState = z.enum(['pending', 'sending', 'sent', 'failed']).meta({ id: 'TransmissionState' });

export const TransmissionAttempt = z
  .object({
    attemptNo: z.number().int(),
    communicationProtocolId: z.number().int(),
    dataFormatIds: z.array(z.number().int()),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
    outcome: z.enum(['running', 'sent', 'failed', 'abandoned']),
    error: z.string().nullable(),
    remoteNames: z.array(z.string()),
    messageId: z.string().nullable(),
  })
  .meta({ id: 'TransmissionAttempt' });

export const SupplierOrderTransmissions = z
  .object({
    supplierOrderNumber: z.string(),
    supplierOrderStatusId: z.number().int(),
    state: TransmissionState.nullable(),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastError: z.string().nullable(),
    idempotencyKey: z.string().nullable(),
    sentAt: z.string().nullable(),
    log: z.array(TransmissionAttempt),
  })
  .meta({ id: 'SupplierOrderTransmissions' });
export type SupplierOrderTransmissions = z.infer<typeof SupplierOrderTransmissions>;

export const WorkflowQuery = z.object({
  communicationProtocol: z.coerce.number().int().min(1).max(6).optional(),
});

/** A connection profile as the API shows it: the secret never leaves the server, only whether one is stored. */
export const Workflow = z
  .object({
    id: z.number().int(),
    name: z.string(),
    communicationProtocol: z.number().int(),
    host: z.string().nullable(),
    port: z.number().int().nullable(),
    userName: z.string().nullable(),
    baseUrl: z.string().nullable(),
    timeoutMs: z.number().int(),
    secretKind: z.enum(['password', 'privateKey']).nullable(),
    hasSecret: z.boolean(),
  })
  .meta({ id: 'Workflow' });
export type Workflow = z.infer<typeof Workflow>;
