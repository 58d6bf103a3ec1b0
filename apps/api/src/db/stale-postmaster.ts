import fs from 'node:fs';
import path from 'node:path';
import { EmbeddedPostgresError } from './embedded-port.ts';

/** Fields of postmaster.pid: pid, data directory, start time, port, socket directory, … */
interface PidFile {
  pid: number;
  port: number | null;
}

function readPidFile(file: string): PidFile | null {
  try {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const pid = Number(lines[0]);
    if (!Number.isInteger(pid) || pid <= 0) return null;
    const port = Number(lines[3]);
    return { pid, port: Number.isInteger(port) && port > 0 ? port : null };
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Command line of a process (Linux /proc); null where it cannot be read. */
function commandLine(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return null;
  }
}

function parentOf(pid: number): number | null {
  try {
    // "pid (comm) state ppid …"; comm may contain spaces, so split after the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** Is `pid` a postgres server started with data directory `dir`? */
function isPostmasterOf(pid: number, dir: string): boolean {
  const cmd = commandLine(pid);
  if (cmd === null) return alive(pid); // no /proc: trust the pid file, as postgres itself does
  return /postgres/.test(cmd) && cmd.includes(dir);
}

async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

/**
 * A `kill -9` of `npm start` leaves its PostgreSQL running (or at least its pid file) and the next
 * start would fail. Before starting: a pid file whose process is gone is removed; a postmaster of this
 * directory whose parent process is gone (orphaned) is shut down (fast shutdown, then immediate);
 * a postmaster still owned by a running process is another portal using the same DATA_DIR: refused.
 */
export async function clearStalePostmaster(dir: string, log: (message: string) => void): Promise<void> {
  const file = path.join(dir, 'postmaster.pid');
  if (!fs.existsSync(file)) return;
  const info = readPidFile(file);
  if (!info || !alive(info.pid) || !isPostmasterOf(info.pid, dir)) {
    fs.rmSync(file, { force: true });
    log('veraltete postmaster.pid entfernt');
    return;
  }
  const parent = parentOf(info.pid);
  const parentCmd = parent && parent > 1 ? commandLine(parent) : null;
  if (parentCmd && /node|tsx|vitest/.test(parentCmd)) {
    throw new EmbeddedPostgresError(
      `Das Datenverzeichnis ${path.dirname(dir)} wird bereits von einem laufenden Portal verwendet ` +
        `(PostgreSQL-Prozess ${info.pid}${info.port ? ` auf Port ${info.port}` : ''}, gestartet von Prozess ${parent}). ` +
        `Beenden Sie dieses Portal oder starten Sie das zweite mit einem anderen DATA_DIR.`,
    );
  }
  log(`verwaiste PostgreSQL (Prozess ${info.pid}) eines abgebrochenen Starts gefunden – wird beendet`);
  process.kill(info.pid, 'SIGINT');
  if (!(await waitForExit(info.pid, 20_000))) {
    process.kill(info.pid, 'SIGQUIT');
    if (!(await waitForExit(info.pid, 10_000))) {
      throw new EmbeddedPostgresError(
        `Die verwaiste PostgreSQL (Prozess ${info.pid}) lässt sich nicht beenden. Bitte beenden Sie sie von Hand.`,
      );
    }
  }
  // SIGQUIT leaves the pid file behind; postgres would refuse to start with it.
  if (fs.existsSync(file) && !alive(readPidFile(file)?.pid ?? 0)) fs.rmSync(file, { force: true });
}
