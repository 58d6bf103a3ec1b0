import { z } from 'zod';

/** German texts of order transmission (the spec names 'Erneut senden' only, the rest is ours). */
export const transmissionMessages = {
  resendNotFailed: 'Nur Bestellungen mit dem Status „Versand fehlgeschlagen“ können erneut gesendet werden.',
  resendRunning: 'Die Bestellung wird bereits erneut gesendet. Bitte warten Sie das Ergebnis ab.',
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

/** What staff see of an X.509 certificate (ours or an AS2 partner's). */
export const CertificateInfo = z
  .object({
    subject: z.string(),
    issuer: z.string(),
    fingerprintSha256: z.string(),
    validFrom: z.string(),
    validTo: z.string(),
    /** Whole days until validTo (negative: expired). */
    daysLeft: z.number().int(),
  })
  .meta({ id: 'CertificateInfo' });
export type CertificateInfo = z.infer<typeof CertificateInfo>;

/** Our AS2 identity as partners need it (the certificate they encrypt to and verify our signatures with). */
export const As2OwnCertificate = z
  .object({ as2Identifier: z.string(), mdnUrl: z.string(), certificatePem: z.string(), certificate: CertificateInfo })
  .meta({ id: 'As2OwnCertificate' });
export type As2OwnCertificate = z.infer<typeof As2OwnCertificate>;

/** A certificate that expires within the warning period (our own or a workflow's partner certificate). */
export const CertificateWarning = z
  .object({
    kind: z.enum(['own', 'partner']),
    workflowId: z.number().int().nullable(),
    workflowName: z.string().nullable(),
    certificate: CertificateInfo,
    message: z.string(),
  })
  .meta({ id: 'CertificateWarning' });
export type CertificateWarning = z.infer<typeof CertificateWarning>;

/** Days before expiry at which staff are warned (one mail per certificate and threshold). */
export const certificateWarningDays = [30, 7, 1] as const;

export const certificateMessages = {
  ownLabel: 'Unser AS2-Zertifikat',
  partnerLabel: (workflow: string) => `AS2-Partnerzertifikat des Workflows „${workflow}“`,
  expiresIn: (label: string, days: number, date: string) =>
    days < 0
      ? `${label} ist am ${date} abgelaufen.`
      : days === 0
        ? `${label} läuft heute (${date}) ab.`
        : `${label} läuft in ${days} ${days === 1 ? 'Tag' : 'Tagen'} ab (am ${date}).`,
  mailSubject: (label: string, date: string) => `Zertifikat läuft ab: ${label} (${date})`,
  mailBody: (text: string, subject: string, fingerprint: string) =>
    [
      'Guten Tag,',
      '',
      text,
      '',
      `Zertifikat: ${subject}`,
      `SHA-256-Fingerabdruck: ${fingerprint}`,
      '',
      'Bitte erneuern Sie das Zertifikat rechtzeitig und tauschen Sie es mit dem AS2-Partner aus; sonst schlägt der Bestellversand per AS2 fehl.',
      '',
      'Ihr SHK-Bestellportal',
    ].join('\n'),
} as const;

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
    as2Encryption: z.enum(['none', 'aes128', 'aes256']),
    as2MdnMode: z.enum(['sync', 'async']),
    partnerCertificate: CertificateInfo.nullable(),
  })
  .meta({ id: 'Workflow' });
export type Workflow = z.infer<typeof Workflow>;
