import { spawnSync } from 'node:child_process';

/**
 * Installs Debian packages with apt-get (index updated first, no questions, no recommended extras) when this process
 * runs as root; tests install the tools they miss this way. Returns whether the install succeeded; false without root.
 */
export function aptInstall(packages) {
  if (process.getuid?.() !== 0) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (spawnSync('apt-get', ['update'], { stdio: 'inherit', env }).status !== 0) return false;
  return (
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { stdio: 'inherit', env })
      .status === 0
  );
}
