import type pg from 'pg';
import {
  BUSINESS_TIME_ZONE,
  certificateMessages,
  certificateWarningDays,
  type CertificateInfo,
  type CertificateWarning,
} from '@shk/contracts';
import { HttpProblem } from '../../http/problem.ts';
import { inTransaction, type Db } from '../../db/pool.ts';
import type { MailService } from '../mail/index.ts';
import type { AppConfig } from '../../config.ts';
import * as repo from './as2.repo.ts';
import { certificateInfo } from './certificates.ts';
import type { As2Identity, As2MdnStore } from './channels/as2.ts';
import {
  checkMdnReport,
  headerParameter,
  multipartParts,
  parseMimeEntity,
  readDispositionNotification,
  readSignedMdn,
} from './channels/as2-mdn.ts';

/** The as2_messages table behind the AS2 transmitter's asynchronous MDNs. */
export const as2MdnStore = (pool: pg.Pool): As2MdnStore => ({
  expect: (message) => repo.expectAs2Message(pool, message),
  outcome: async (messageId) => {
    const row = await repo.findAs2Message(pool, messageId);
    return row ? { state: row.state, error: row.error } : null;
  },
});

/** Our MDN URL: AS2_MDN_URL, or the API's public URL (partners post to /inbound/as2/mdn). */
/** Where partners send asynchronous MDNs: AS2_MDN_URL, or the portal's own inbound route. */
export const as2MdnUrl = (config: Pick<AppConfig, 'publicUrl' | 'as2'>) =>
  config.as2.mdnUrl ?? `${config.publicUrl}/inbound/as2/mdn`;

/** The Original-Message-ID of a (signed or unsigned) MDN, read before the signature is checked. */
function originalMessageId(contentType: string, body: Buffer): string | null {
  try {
    if (/^\s*multipart\/signed/i.test(contentType)) {
      const boundary = headerParameter(contentType, 'boundary');
      const [report] = boundary ? multipartParts(body, boundary) : [];
      return report ? readDispositionNotification(parseMimeEntity(report)).originalMessageId : null;
    }
    return readDispositionNotification({ headers: new Map([['content-type', contentType]]), body }).originalMessageId;
  } catch {
    return null;
  }
}

export interface AsyncMdnResult {
  messageId: string;
  state: 'processed' | 'failed';
  /** False when the MDN repeats one already recorded (nothing changed). */
  recorded: boolean;
}

/**
 * An asynchronous MDN posted by a partner: matched by its Original-Message-ID, its signature checked
 * against the partner certificate of the workflow the message went out with, then recorded once. The
 * waiting transmission attempt (or the next one) reads the outcome. Unknown message: 404; an unsigned
 * MDN or one signed with another key: 400, nothing recorded.
 */
export async function receiveAsyncMdn(pool: pg.Pool, contentType: string, body: Buffer): Promise<AsyncMdnResult> {
  const messageId = originalMessageId(contentType, body);
  if (!messageId) throw new HttpProblem(400, 'Keine MDN: Original-Message-ID fehlt.');
  const message = await repo.findAs2Message(pool, messageId);
  if (!message) throw new HttpProblem(404, 'Unbekannte AS2-Nachricht', { detail: messageId });
  const certificate = message.workflow_id
    ? (await repo.as2PartnerCertificates(pool)).find((w) => w.id === message.workflow_id)?.certificate
    : undefined;
  if (!certificate) throw new HttpProblem(409, 'Für diese Nachricht ist kein Partnerzertifikat hinterlegt.');
  let report;
  try {
    report = readSignedMdn(contentType, body, certificate);
  } catch (error) {
    throw new HttpProblem(400, 'Die MDN wurde nicht angenommen.', { detail: (error as Error).message });
  }
  if (message.state !== 'awaiting') return { messageId, state: message.state, recorded: false };
  let state: 'processed' | 'failed' = 'processed';
  let reason: string | null = null;
  try {
    checkMdnReport(report, messageId, message.mic);
  } catch (error) {
    state = 'failed';
    reason = (error as Error).message;
  }
  const recorded = await repo.recordAs2Mdn(pool, messageId, state, reason);
  return { messageId, state, recorded };
}

const germanDate = (iso: string) =>
  new Intl.DateTimeFormat('de-DE', {
    timeZone: BUSINESS_TIME_ZONE,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date(iso));

/** The largest warning period the certificate has entered (30, 7, 1 days), or null. */
const WARNING_PERIOD = Math.max(...certificateWarningDays);
const thresholdFor = (daysLeft: number) =>
  [...certificateWarningDays].sort((a, b) => a - b).find((days) => daysLeft <= days) ?? null;

function warning(
  kind: 'own' | 'partner',
  certificate: CertificateInfo,
  workflow: { id: number; name: string } | null,
): CertificateWarning {
  const label = workflow ? certificateMessages.partnerLabel(workflow.name) : certificateMessages.ownLabel;
  return {
    kind,
    workflowId: workflow?.id ?? null,
    workflowName: workflow?.name ?? null,
    certificate,
    message: certificateMessages.expiresIn(label, certificate.daysLeft, germanDate(certificate.validTo)),
  };
}

/** Our certificate (when AS2 is in use) and every AS2 partner certificate that expires within 30 days or has expired. */
export async function certificateWarnings(
  pool: pg.Pool,
  identity: () => As2Identity,
  now = new Date(),
): Promise<CertificateWarning[]> {
  const warnings: CertificateWarning[] = [];
  const partners = await repo.as2PartnerCertificates(pool);
  // Our certificate matters once AS2 is in use (and is created on first use, not by this check).
  if (partners.length) {
    const own = certificateInfo(identity().certPem, now);
    if (own.daysLeft <= WARNING_PERIOD) warnings.push(warning('own', own, null));
  }
  for (const w of partners) {
    const info = certificateInfo(w.certificate, now);
    if (info.daysLeft <= WARNING_PERIOD) warnings.push(warning('partner', info, w));
  }
  return warnings;
}

/**
 * Mails the administrators once per certificate and threshold (30, 7 and 1 day before expiry): the
 * notice row and the outbox mails commit together, so a crash neither loses nor repeats the warning.
 */
export async function mailCertificateWarnings(
  db: Db,
  mail: Pick<MailService, 'enqueue' | 'dispatch'>,
  identity: () => As2Identity,
  now = new Date(),
): Promise<number> {
  const queued: number[] = [];
  for (const w of await certificateWarnings(db.$client as pg.Pool, identity, now)) {
    const threshold = thresholdFor(w.certificate.daysLeft);
    if (threshold === null) continue;
    const ids = await inTransaction(db, async (tx) => {
      const client = tx.$client;
      if (!(await repo.claimExpiryNotice(client, w.certificate.fingerprintSha256, threshold))) return [];
      const label = w.workflowName ? certificateMessages.partnerLabel(w.workflowName) : certificateMessages.ownLabel;
      const mails: number[] = [];
      for (const to of await repo.administratorEmails(client))
        mails.push(
          await mail.enqueue(
            {
              to,
              subject: certificateMessages.mailSubject(label, germanDate(w.certificate.validTo)),
              text: certificateMessages.mailBody(w.message, w.certificate.subject, w.certificate.fingerprintSha256),
            },
            client,
          ),
        );
      tx.afterCommit(() => mail.dispatch(mails));
      return mails;
    });
    queued.push(...ids);
  }
  return queued.length;
}
