/**
 * Public face of the mail module: Outgoing mails: written in the caller's transaction, delivered by a job that retries.
 * Other modules import only from here (lint: docs/conventions.md, „Checks“).
 */
export {
  MailService,
  createFileTransport,
  createSmtpTransport,
  type DeliverableMail,
  type MailAttachment,
  type MailContent,
  type MailRecipient,
  type MailTransport,
  type OutgoingMail,
} from './mail.service.ts';
