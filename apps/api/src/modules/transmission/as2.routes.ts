import { z } from 'zod';
import { As2OwnCertificate, CertificateWarning, Role } from '@shk/contracts';
import type { App, AppDeps } from '../../http/types.ts';
import { HttpProblem } from '../../http/problem.ts';
import { certificateInfo } from './certificates.ts';
import type { As2Identity } from './channels/as2.ts';
import { as2MdnUrl, certificateWarnings, receiveAsyncMdn } from './as2.service.ts';

const staff = [Role.Administrator, Role.Support, Role.PlatformOperator];
const MAX_MDN_BYTES = 1024 * 1024;

/**
 * AS2 beside the transmitter: the receiver of asynchronous MDNs (partners post them without a sign-in;
 * the signature against the partner's certificate is the proof), our certificate for partners and the
 * expiry warnings staff see on the workflow list.
 */
export function as2Routes(identity: () => As2Identity) {
  return async (app: App, { pool, config }: AppDeps) => {
    await app.register(async (scope) => {
      scope.addContentTypeParser(
        /^(multipart|message|application|text)\//i,
        { parseAs: 'buffer', bodyLimit: MAX_MDN_BYTES },
        (_r, body, done) => done(null, body),
      );
      scope.post('/inbound/as2/mdn', { schema: { hide: true } }, async (request, reply) => {
        if (!Buffer.isBuffer(request.body) || !request.body.length) throw new HttpProblem(400, 'Die MDN ist leer.');
        const result = await receiveAsyncMdn(pool, String(request.headers['content-type'] ?? ''), request.body);
        return reply
          .status(200)
          .type('text/plain; charset=utf-8')
          .send(
            result.recorded ? `MDN für ${result.messageId} angenommen` : `MDN für ${result.messageId} lag bereits vor`,
          );
      });
    });

    app.get(
      '/v1/As2/Certificate',
      {
        config: { roles: staff },
        schema: {
          tags: ['Bestellübertragung'],
          summary:
            'Unser AS2-Zertifikat (für Partner: Verschlüsselung an uns, Prüfung unserer Signatur) und die MDN-Adresse',
          response: { 200: As2OwnCertificate },
        },
      },
      async () => {
        const me = identity();
        return {
          as2Identifier: me.as2Id,
          mdnUrl: as2MdnUrl(config),
          certificatePem: me.certPem,
          certificate: certificateInfo(me.certPem),
        };
      },
    );

    app.get(
      '/v1/As2/CertificateWarnings',
      {
        config: { roles: staff },
        schema: {
          tags: ['Bestellübertragung'],
          summary: 'AS2-Zertifikate (unser eigenes und die der Partner), die in höchstens 30 Tagen ablaufen',
          response: { 200: z.array(CertificateWarning) },
        },
      },
      async () => certificateWarnings(pool, identity),
    );
  };
}
