import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../../config.ts';

/**
 * Encrypts workflow secrets at rest (AES-256-GCM). The key comes from WORKFLOW_SECRET_KEY (64 hex
 * characters or base64 of 32 bytes); without it the runtime takes the installation's key from PostgreSQL
 * (transmission/shared-keys.ts: generated once, shared by every node). Only a tool without database falls back to
 * one generated per DATA_DIR (`DATA_DIR/transmission/workflow-secret.key`, mode 600).
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('WORKFLOW_SECRET_KEY must be 32 bytes (64 hex characters or base64)');
  }

  static of(config: Pick<AppConfig, 'dataDir' | 'workflowSecretKey'>): SecretBox {
    const configured = config.workflowSecretKey;
    const dataDir = config.dataDir;
    if (configured)
      return new SecretBox(
        /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64'),
      );
    const file = path.join(dataDir, 'transmission', 'workflow-secret.key');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      try {
        fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    return new SecretBox(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex'));
  }

  encrypt(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), data.toString('base64')].join(':');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== 'v1') throw new Error('unknown secret format');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** The key a single-node installation generated in DATA_DIR before it moved into PostgreSQL (hex), if any. */
export function workflowKeyInDataDir(dataDir: string): string | null {
  const file = path.join(dataDir, 'transmission', 'workflow-secret.key');
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : null;
}
