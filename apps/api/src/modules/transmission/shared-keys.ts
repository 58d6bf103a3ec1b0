import crypto from 'node:crypto';
import type pg from 'pg';
import type { AppConfig } from '../../config.ts';
import { sharedSecret } from '../cluster/index.ts';
import { as2KeysInDataDir, createAs2KeyPair } from './channels/as2.ts';
import { workflowKeyInDataDir } from './secret-box.ts';

/**
 * The configuration with the keys every node must share filled in from PostgreSQL (cluster_secrets): the workflow
 * secret key (unless WORKFLOW_SECRET_KEY is set) and the platform's AS2 key and certificate (unless AS2_KEY_FILE and
 * AS2_CERT_FILE are set). The first node to start creates them, or takes over what a single-node installation kept
 * in DATA_DIR (so the secrets it encrypted stay readable and its certificate stays the one suppliers know).
 */
export async function withSharedTransmissionKeys(pool: pg.Pool, config: AppConfig): Promise<AppConfig> {
  const workflowSecretKey =
    config.workflowSecretKey ??
    (await sharedSecret<string>(
      pool,
      'workflow_secret_key',
      () => workflowKeyInDataDir(config.dataDir),
      () => crypto.randomBytes(32).toString('hex'),
    ));
  const configuredAs2 = Boolean(config.as2.keyFile && config.as2.certFile);
  const shared = configuredAs2
    ? undefined
    : await sharedSecret<{ keyPem: string; certPem: string }>(
        pool,
        'as2_identity',
        () => as2KeysInDataDir(config.dataDir),
        () => createAs2KeyPair(config.as2.identifier),
      );
  return { ...config, workflowSecretKey, as2: { ...config.as2, shared } };
}
