import { z } from 'zod';

/** German texts of order transmission (issue 9 A; the spec names 'Erneut senden' only, the rest is ours). */
export const transmissionMessages = {
  resendNotFailed: 'Nur Bestellungen mit dem Status „Versand fehlgeschlagen“ können erneut gesendet werden.',
  resendQueued: 'Die Bestellung wird erneut gesendet.',
  orderNotFound: 'Bestellung nicht gefunden',
  resendAction: 'Erneut senden',
  resendCurrentAction: 'Mit den aktuellen Einstellungen senden',
  resendQueuedCurrent: 'Die Bestellung wird mit den aktuellen Einstellungen des Lieferanten erneut gesendet.',
  /** 'Erneut senden' names the channel it will use: the one of the first attempt. */
  resendUses: (channel: string) => `Erneut senden verwendet denselben Weg wie der erste Versuch: ${channel}.`,
  channelChanged: (current: string) =>
    `Der Lieferant ist inzwischen umgestellt auf: ${current}. Die Bestellung geht trotzdem über den ersten Weg, weil der Lieferant sie dort womöglich schon erhalten hat. Mit den aktuellen Einstellungen zu senden kann zu einer doppelten Bestellung führen.`,
  workflowVersionGone: 'Der Workflow des ersten Versuchs wurde gelöscht. Bitte mit den aktuellen Einstellungen senden.',
} as const;

/** German reasons of failed connections and deliveries (never a library's raw message). */
export const outboundMessages = {
  connectionFailed: (reason: string) => `Verbindung fehlgeschlagen: ${reason}`,
  hostNotFound: 'Rechner nicht gefunden',
  refused: 'Verbindung abgelehnt (Port geschlossen)',
  timeout: 'Zeitüberschreitung',
  reset: 'Verbindung vom Server getrennt',
  unreachable: 'Rechner nicht erreichbar',
  authFailed: 'Anmeldung fehlgeschlagen (Benutzer, Passwort oder Schlüssel falsch)',
  badPrivateKey: 'Der private Schlüssel ist ungültig',
  tls: 'TLS-Zertifikat des Servers ungültig',
  noHost: 'Kein Rechner angegeben',
  blockedPort: 'Dieser Port ist für HTTP gesperrt',
  badUrl: 'Die URL ist ungültig',
  unexpected: 'unerwarteter Fehler',
  noSuchFile: 'Datei oder Ordner nicht vorhanden',
  permissionDenied: 'Keine Berechtigung auf dem Server',
  remoteFailure: 'Der Server hat den Vorgang abgelehnt',
  ftpError: (code: number) => `Der FTP-Server meldet Fehler ${code}`,
  internalTarget: (host: string, address: string, kind: string) =>
    `Ziel nicht erlaubt: ${host} ist eine interne Adresse (${kind} ${address}). Interne Ziele gibt der Betreiber in TRANSMISSION_ALLOWED_HOSTS frei.`,
  databasePort: (host: string, port: number) =>
    `Ziel nicht erlaubt: ${host}:${port} ist der Port der Datenbank des Portals.`,
  redirect: (status: number, location: string | null) =>
    `Weiterleitung nicht erlaubt (HTTP ${status}${location ? ` nach ${location}` : ''})`,
  hostKeyChanged: (pinned: string, presented: string) =>
    `Der Hostschlüssel des SFTP-Servers hat sich geändert: hinterlegt ist ${pinned}, der Server zeigt ${presented}. Es wurde nichts gesendet. Hat der Lieferant seinen Schlüssel erneuert, den neuen Schlüssel unter Workflows annehmen und erneut senden.`,
  incomplete: (arrived: number, expected: number) =>
    `Übertragung unvollständig: ${arrived} von ${expected} Bytes auf dem Server`,
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

/** A channel as staff read it: protocol, the workflow (profile) version, and a German one-line description. */
export const TransmissionChannel = z
  .object({
    communicationProtocolId: z.number().int(),
    workflowId: z.number().int().nullable(),
    workflowName: z.string().nullable(),
    workflowVersion: z.number().int().nullable(),
    recordedAt: z.string().nullable(),
    description: z.string(),
  })
  .meta({ id: 'TransmissionChannel' });
export type TransmissionChannel = z.infer<typeof TransmissionChannel>;

/** 'Erneut senden' (query): by default over the channel of the first attempt; `current` takes the supplier's settings now. */
export const ResendRequest = z.object({ channel: z.enum(['first', 'current']).default('first') });

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
    /** The channel of the first attempt that retries and 'Erneut senden' keep (null before the first attempt). */
    channel: TransmissionChannel.nullable(),
    /** The supplier's current settings, when they differ from `channel`. */
    currentChannel: TransmissionChannel.nullable(),
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
    /** SFTP: the host key pinned for the profile's host and port (null: none yet). */
    hostKey: z.object({ fingerprint: z.string(), pinnedAt: z.string(), confirmedAt: z.string().nullable() }).nullable(),
  })
  .meta({ id: 'Workflow' });
export type Workflow = z.infer<typeof Workflow>;
