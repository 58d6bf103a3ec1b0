/**
 * The AS2 partnership of a transmission test: the partner built on OpenSSL's `cms` command (transmission-peers.ts),
 * which knows the portal's certificate, and a demo supplier that sends its orders to it through an AS2 workflow
 * holding the partner's certificate (as an administrator sets both up).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestApp } from './test-app.ts';
import { opensslCertificate, startAs2Peer, type As2Peer } from './transmission-peers.ts';
import { loadAs2Identity } from '../../src/modules/transmission/channels/as2.ts';
import type { WorkflowInput } from '../../src/modules/transmission/workflows.service.ts';
import {
  configureSupplier,
  createWorkflow,
  Format,
  Protocol,
  type SupplierSetup,
} from '../transmission/order-fixtures.ts';

export type { As2Peer };

/** The OpenSSL partner: start it before the app, `trustPortal()` once the app runs. */
export const startAs2Partner = startAs2Peer;

/** The partner verifies the portal's signatures with the portal's certificate alone (the operator sent it). */
export function trustPortal(as2: As2Peer, t: TestApp) {
  as2.trust(loadAs2Identity(t.config.dataDir, t.config.as2).certPem);
}

/**
 * Sends the supplier's orders (EDIFACT D.96A) to the partner: an AS2 workflow with the partner's certificate and
 * `workflow` settings, and the supplier's interface naming the partner's AS2 id and `url` (default: the partner's).
 */
export async function connectAs2Supplier(
  t: TestApp,
  as2: As2Peer,
  supplierBp: string,
  options: { name: string; url?: string; workflow?: Partial<WorkflowInput>; supplier?: Partial<SupplierSetup> },
) {
  const workflow = await createWorkflow(t, {
    name: options.name,
    communicationProtocol: Protocol.As2,
    partnerCertificate: as2.certificatePem,
    ...options.workflow,
  });
  await configureSupplier(t, supplierBp, {
    protocol: Protocol.As2,
    formats: [Format.Edi_96A],
    as2Identifier: as2.as2Id,
    as2Url: options.url ?? as2.url,
    workflowId: workflow.id,
    ...options.supplier,
  });
  return workflow;
}

/** Self-signed certificates made by `openssl req` (a partner certificate about to expire …) in a directory of their own. */
export function certificateMaker() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-as2-certs-'));
  return {
    certificate: (commonName: string, days?: number) => opensslCertificate(dir, commonName, days),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
