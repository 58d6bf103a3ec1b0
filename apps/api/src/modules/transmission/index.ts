import type pg from 'pg';
import type { AppConfig } from '../../config.ts';
import type { App, AppDeps } from '../../http/types.ts';
import { SecretBox } from './secret-box.ts';
import { WorkflowsService } from './workflows.service.ts';
import { TransmissionWorker } from './worker.ts';
import { defaultTransmitters } from './channels/index.ts';
import { loadAs2Identity, type As2Identity } from './channels/as2.ts';
import { transmissionRoutes } from './transmission.routes.ts';
import { OutboundPolicy, databaseEndpointOf } from './outbound.ts';
import { as2Routes } from './as2.routes.ts';
import { fileStorage } from '../storage/index.ts';
import { as2MdnStore, as2MdnUrl, mailCertificateWarnings } from './as2.service.ts';
import { loadOrder } from './transmission.repo.ts';
export { transmissionRowsOf } from './transmission.repo.ts';
import { orderPdf } from './formats/pdf-order.ts';
import type { Queryable } from '../../db/queryable.ts';
import { periodic } from '../../lifecycle.ts';

export { resendSupplierOrder, listTransmissions } from './transmission.service.ts';
export { changeSupplierOrderStatus, refreshCustomerOrderStatus } from './supplier-order-status.ts';
export { WorkflowsService, type WorkflowInput, type WorkflowView } from './workflows.service.ts';
export type { WorkflowConnection } from './transmission.types.ts';
export { OutboundPolicy, describeOutboundError } from './outbound.ts';
export { HostKeyMismatchError, openSftp } from './channels/sftp.ts';
export { openFtp } from './channels/ftp.ts';

/** The outbound policy of this process: TRANSMISSION_ALLOWED_HOSTS, and the database's port is never a target. */
export const outboundPolicy = (deps: Pick<AppDeps, 'db' | 'config'>) =>
  new OutboundPolicy(deps.config.transmissionAllowedHosts, databaseEndpointOf(deps.db.$client));
export { SecretBox } from './secret-box.ts';
export { withSharedTransmissionKeys } from './shared-keys.ts';
export { transmissionRoutes } from './transmission.routes.ts';

/** Workflows with the secret key of this data directory (the ORDRSP pick-up reads its connections here). */
export const workflowsService = (deps: Pick<AppDeps, 'db' | 'config'>) =>
  new WorkflowsService(deps.db.$client, SecretBox.of(deps.config));

/** The platform's AS2 identity of this configuration, loaded (or created in DATA_DIR) on first use. */
function as2IdentityOf(config: AppConfig) {
  let as2: As2Identity | null = null;
  return () => (as2 ??= loadAs2Identity(config.dataDir, config.as2));
}

/** Builds the worker for a database (the app uses it in-process; tests and benchmarks run it in child processes). */
export function createTransmissionWorker(
  deps: Pick<AppDeps, 'db' | 'mail' | 'config'>,
  log?: { info: (...a: unknown[]) => void; error: (...a: unknown[]) => void },
) {
  const workflows = workflowsService(deps);
  const identity = as2IdentityOf(deps.config);
  const policy = outboundPolicy(deps);
  const worker = new TransmissionWorker(
    deps.db,
    defaultTransmitters(deps.mail, identity, policy, workflows, {
      mdnUrl: as2MdnUrl(deps.config),
      store: as2MdnStore(deps.db.$client),
      asyncWaitMs: deps.config.as2.asyncMdnWaitMs,
      timeoutMs: deps.config.as2.timeoutMs,
    }),
    workflows,
    deps.config.transmission,
    policy,
    fileStorage({ config: deps.config, pool: deps.db.$client as pg.Pool }),
    log,
  );
  return { worker, workflows };
}

/**
 * Order transmission: routes (resend, log, workflows), the outbox worker and the AS2 certificate check, which the
 * node's lifecycle starts and stops (lifecycle.ts). TRANSMISSION_WORKER=off runs no worker in this process (another
 * process transmits).
 */
export async function transmissionModule(app: App, deps: AppDeps) {
  // Built on first use, not at registration: the OpenAPI generator registers routes without a database.
  let built: ReturnType<typeof createTransmissionWorker> | null = null;
  const transmission = () =>
    (built ??= createTransmissionWorker(deps, {
      info: (...a) => app.log.info(a.map(String).join(' ')),
      error: (...a) => app.log.error(a[0] as object, String(a[1] ?? '')),
    }));
  const identity = as2IdentityOf(deps.config);
  await as2Routes(identity)(app, deps);
  await transmissionRoutes(
    () => transmission().workflows,
    () => built?.worker.nudge(),
  )(app, deps);
  if (deps.config.transmission.worker)
    deps.lifecycle.provide('transmission worker', {
      start: () => transmission().worker.start(),
      stop: () => built?.worker.stop(),
    });
  // Certificate expiry warnings: checked at start and every AS2_CERT_CHECK_MS (6 h); each node may check,
  // the notice table lets only one of them mail per certificate and threshold.
  if (deps.config.as2.certificateCheck)
    deps.lifecycle.provide(
      'AS2 certificate check',
      periodic(
        () =>
          mailCertificateWarnings(deps.db, deps.mail, identity).catch((error) =>
            app.log.error({ err: error }, 'AS2 certificate expiry check failed'),
          ),
        deps.config.as2.certificateCheckEveryMs,
        { atStart: true },
      ),
    );
}

/**
 * The supplier order's PDF as the supplier gets it (the same renderer and data), for the buyer's printable order;
 * null when the supplier order does not exist.
 */
export async function supplierOrderPdf(client: Queryable, supplierOrderId: number) {
  const order = await loadOrder(client, supplierOrderId);
  return order ? { fileName: `Bestellung_${order.supplierOrderNumber}.pdf`, content: orderPdf(order) } : null;
}
