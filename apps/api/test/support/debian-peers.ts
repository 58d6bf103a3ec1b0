/**
 * Independent supplier servers on loopback, as a supplier's IT runs them: Debian's OpenSSH server (sshd with its
 * own sshd_config and host key, the sftp-server subsystem, key login of the current user, no chroot) and vsftpd
 * (own config, anonymous login into a writable folder). A missing package is installed with apt-get when the
 * tests run as root (like scripts/test.mjs does for Chromium); otherwise `unavailable` says why and tests skip.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.ts';

const SSHD = '/usr/sbin/sshd';
const SFTP_SERVER = '/usr/lib/openssh/sftp-server';
const VSFTPD = '/usr/sbin/vsftpd';
const isRoot = () => process.getuid?.() === 0;

/** Installs a Debian package when its binary is missing; returns null when usable, else the reason to skip. */
export function ensureDebianPackage(binary: string, pkg: string): string | null {
  if (fs.existsSync(binary)) return null;
  if (!isRoot())
    return `${pkg} fehlt (${binary}); als root installiert der Test es selbst, sonst: sudo apt-get install -y ${pkg}`;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update'], { stdio: 'ignore', env });
  spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { stdio: 'ignore', env });
  return fs.existsSync(binary) ? null : `${pkg} konnte nicht installiert werden (${binary} fehlt)`;
}

export const sshdUnavailable = () =>
  ensureDebianPackage(SSHD, 'openssh-server') ?? (fs.existsSync(SFTP_SERVER) ? null : `${SFTP_SERVER} fehlt`);

/** vsftpd needs root (it drops privileges per session and chroots anonymous users into their folder). */
export const vsftpdUnavailable = () =>
  isRoot() ? ensureDebianPackage(VSFTPD, 'vsftpd') : 'vsftpd braucht root (Anmeldung mit chroot); Test übersprungen';

async function waitForPort(port: number, child: ChildProcess, stderr: () => string) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}): ${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`server did not listen on ${port}: ${stderr()}`);
}

function startDaemon(command: string, args: string[]) {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  return { child, stderr: () => stderr };
}

/** Direct children of a process (sshd's per-connection processes), read from /proc. */
function childrenOf(pid: number): number[] {
  return fs.readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the command in parentheses, which may itself contain spaces.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** Stops the daemon and the connections it serves (a restarted server has no old sessions left). */
async function stopDaemon(child: ChildProcess | null) {
  if (!child || child.exitCode !== null || child.pid === undefined) return;
  const sessions = childrenOf(child.pid);
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
  for (const pid of sessions) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

const fingerprintOf = (publicKeyFile: string) =>
  execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', publicKeyFile]).toString().split(' ')[1];

export interface SshdPeer {
  port: number;
  user: string;
  /** Private key of the login (the workflow's secret). */
  privateKey: string;
  /** The folder the supplier imports from (an absolute path on this machine). */
  inbox: string;
  /** SHA256 fingerprint of the current host key as ssh-keygen prints it. */
  fingerprint: () => string;
  /** Starts sshd (again) on the same port; `newHostKey` first replaces the host key (a reinstalled server). */
  start: (options?: { newHostKey?: boolean }) => Promise<void>;
  stop: () => Promise<void>;
  close: () => Promise<void>;
}

/** Debian's sshd on a free loopback port (not started until `start()`), sftp-server with umask 022. */
export async function createSshdPeer(): Promise<SshdPeer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-sshd-'));
  const port = await freePort();
  const inbox = path.join(dir, 'inbox');
  fs.mkdirSync(inbox);
  const hostKey = path.join(dir, 'host_key');
  const newHostKey = () => {
    fs.rmSync(hostKey, { force: true });
    fs.rmSync(`${hostKey}.pub`, { force: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  };
  newHostKey();
  const clientKey = path.join(dir, 'client_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', clientKey]);
  fs.copyFileSync(`${clientKey}.pub`, path.join(dir, 'authorized_keys'));
  const config = path.join(dir, 'sshd_config');
  fs.writeFileSync(
    config,
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${hostKey}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      `Subsystem sftp ${SFTP_SERVER} -u 022`,
      'LogLevel ERROR',
      '',
    ].join('\n'),
  );
  // Privilege separation directory sshd insists on when started as root.
  if (isRoot()) fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  let daemon: ReturnType<typeof startDaemon> | null = null;
  const peer: SshdPeer = {
    port,
    user: os.userInfo().username,
    privateKey: fs.readFileSync(clientKey, 'utf8'),
    inbox,
    fingerprint: () => fingerprintOf(`${hostKey}.pub`),
    async start(options = {}) {
      await stopDaemon(daemon?.child ?? null);
      if (options.newHostKey) newHostKey();
      daemon = startDaemon(SSHD, ['-D', '-e', '-f', config]);
      await waitForPort(port, daemon.child, daemon.stderr);
    },
    stop: () => stopDaemon(daemon?.child ?? null),
    async close() {
      await stopDaemon(daemon?.child ?? null);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return peer;
}

export interface VsftpdPeer {
  port: number;
  /** Anonymous login; the writable folder is /inbox. */
  user: string;
  password: string;
  /** The chroot directory: /inbox is `path.join(root, 'inbox')`. */
  root: string;
  start: () => Promise<void>;
  close: () => Promise<void>;
}

/** vsftpd on a free loopback port (not started until `start()`), anonymous uploads into /inbox. */
export async function createVsftpdPeer(): Promise<VsftpdPeer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'shk-vsftpd-'));
  fs.chmodSync(dir, 0o755);
  const root = path.join(dir, 'root');
  const inbox = path.join(root, 'inbox');
  fs.mkdirSync(inbox, { recursive: true });
  fs.mkdirSync(path.join(dir, 'empty'));
  // vsftpd refuses a chroot the anonymous user can write to; the inbox belongs to Debian's ftp user.
  const ftpUser = execFileSync('id', ['-u', 'ftp']).toString().trim();
  fs.chownSync(inbox, Number(ftpUser), 0);
  const port = await freePort();
  const pasv = await freePort();
  const config = path.join(dir, 'vsftpd.conf');
  fs.writeFileSync(
    config,
    [
      'listen=YES',
      'listen_address=127.0.0.1',
      `listen_port=${port}`,
      'background=NO',
      'anonymous_enable=YES',
      'local_enable=NO',
      'no_anon_password=YES',
      `anon_root=${root}`,
      'write_enable=YES',
      'anon_upload_enable=YES',
      'anon_mkdir_write_enable=YES',
      'anon_other_write_enable=YES',
      'anon_umask=022',
      'pasv_enable=YES',
      'pasv_address=127.0.0.1',
      `pasv_min_port=${pasv}`,
      `pasv_max_port=${pasv + 20}`,
      `secure_chroot_dir=${path.join(dir, 'empty')}`,
      'seccomp_sandbox=NO',
      'xferlog_enable=NO',
      `vsftpd_log_file=${path.join(dir, 'vsftpd.log')}`,
      '',
    ].join('\n'),
  );
  let daemon: ReturnType<typeof startDaemon> | null = null;
  return {
    port,
    user: 'anonymous',
    password: 'bestellportal@example.com',
    root,
    async start() {
      daemon = startDaemon(VSFTPD, [config]);
      await waitForPort(port, daemon.child, daemon.stderr);
    },
    async close() {
      await stopDaemon(daemon?.child ?? null);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
