import type { MailService } from '../../mail/index.ts';
import type { OrderTransmitter } from '../transmission.types.ts';
import { as2Transmitter, type As2Identity, type As2Options } from './as2.ts';
import { emailTransmitter } from './email.ts';
import { ftpTransmitter } from './ftp.ts';
import { apiTransmitter, httpTransmitter } from './http.ts';
import { sftpTransmitter, type HostKeyStore } from './sftp.ts';
import type { OutboundPolicy } from '../outbound.ts';

/** One transmitter per outbound protocol id: Email 1, Sftp 2, As2 3, Http 4, Ftp 5, Api 6. */
export function defaultTransmitters(
  mail: Pick<MailService, 'deliverDirect'>,
  as2Identity: () => As2Identity,
  policy: OutboundPolicy,
  hostKeys: HostKeyStore,
  as2Options: As2Options,
): OrderTransmitter[] {
  return [
    emailTransmitter(mail),
    sftpTransmitter(policy, hostKeys),
    as2Transmitter(as2Identity, as2Options, policy),
    httpTransmitter(policy),
    ftpTransmitter(policy),
    apiTransmitter(policy),
  ];
}
