import { describe, expect, it } from 'vitest';
import { FTPError } from 'basic-ftp';
import { outboundMessages } from '@shk/contracts';
import { describeOutboundError } from './outbound.ts';
import { PermanentTransmissionError } from './transmission.types.ts';

const failed = outboundMessages.connectionFailed;

describe('describeOutboundError: German reasons, never a library message', () => {
  it('reads the code inside the texts ssh2-sftp-client wraps', () => {
    expect(
      describeOutboundError(new Error('connect: getConnection: getaddrinfo ENOTFOUND sftp.lieferant.example')),
    ).toBe(failed(outboundMessages.hostNotFound));
    expect(describeOutboundError(new Error('connect: getConnection: connect ECONNREFUSED 203.0.113.5:22'))).toBe(
      failed(outboundMessages.refused),
    );
    expect(
      describeOutboundError(new Error('connect: getConnection: All configured authentication methods failed')),
    ).toBe(failed(outboundMessages.authFailed));
    expect(describeOutboundError(new Error('connect: getConnection: Timed out while waiting for handshake'))).toBe(
      failed(outboundMessages.timeout),
    );
  });

  it('maps error codes, FTP replies and fetch causes', () => {
    expect(describeOutboundError(Object.assign(new Error('getaddrinfo EAI_AGAIN x'), { code: 'EAI_AGAIN' }))).toBe(
      failed(outboundMessages.hostNotFound),
    );
    expect(describeOutboundError(new FTPError({ code: 530, message: '530 Login incorrect.' }))).toBe(
      failed(outboundMessages.authFailed),
    );
    expect(describeOutboundError(new FTPError({ code: 553, message: '553 Could not create file.' }))).toBe(
      failed(outboundMessages.ftpError(553)),
    );
    const fetchError = new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect EHOSTUNREACH 203.0.113.9:443'), { code: 'EHOSTUNREACH' }),
    });
    expect(describeOutboundError(fetchError)).toBe(failed(outboundMessages.unreachable));
    expect(describeOutboundError(Object.assign(new Error('x'), { code: 'CERT_HAS_EXPIRED' }))).toBe(
      failed(outboundMessages.tls),
    );
  });

  it('keeps our own German reasons and hides unknown library texts', () => {
    expect(describeOutboundError(new PermanentTransmissionError('Kein Workflow hinterlegt'))).toBe(
      'Kein Workflow hinterlegt',
    );
    expect(describeOutboundError(new Error('AS2: MDN meldet failed'))).toBe('AS2: MDN meldet failed');
    expect(describeOutboundError(new Error('_write: socket hang up in handshake'))).toBe(
      failed(outboundMessages.unexpected),
    );
  });
});
