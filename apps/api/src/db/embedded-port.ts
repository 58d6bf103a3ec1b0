import net from 'node:net';
import { createHash } from 'node:crypto';

/** Start-up problems of the embedded database, worded for the person running `npm start`. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const DERIVED_BASE = 54329;
const DERIVED_RANGE = 600;

export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A stable port per data directory, so two checkouts on one machine do not collide. */
export function derivedPort(dir: string): number {
  const hash = createHash('sha256').update(dir).digest().readUInt32BE(0);
  return DERIVED_BASE + (hash % DERIVED_RANGE);
}

/**
 * The port the embedded PostgreSQL listens on. An explicit port (EMBEDDED_PG_PORT) must be free;
 * without one the directory's derived port is used, or any free port when something else holds it.
 */
export async function choosePort(dir: string, explicit: number | undefined): Promise<number> {
  if (explicit !== undefined) {
    if (!Number.isInteger(explicit) || explicit < 1 || explicit > 65535) {
      throw new EmbeddedPostgresError(`EMBEDDED_PG_PORT="${explicit}" ist keine gültige Portnummer (1–65535).`);
    }
    if (!(await isPortFree(explicit))) {
      throw new EmbeddedPostgresError(
        `Port ${explicit} (EMBEDDED_PG_PORT) ist bereits belegt – vermutlich läuft dort schon eine andere ` +
          `PostgreSQL oder ein zweites Portal. Beenden Sie das andere Programm oder wählen Sie mit ` +
          `EMBEDDED_PG_PORT einen anderen Port (ohne EMBEDDED_PG_PORT wird automatisch ein freier gewählt).`,
      );
    }
    return explicit;
  }
  const preferred = derivedPort(dir);
  return (await isPortFree(preferred)) ? preferred : anyFreePort();
}
