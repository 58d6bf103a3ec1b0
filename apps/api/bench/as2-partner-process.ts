/**
 * The bench's AS2 partner (test/support/transmission-peers.ts: OpenSSL `cms`) in a process of its own, as a
 * supplier's gateway runs on its own machine: its `openssl` child processes are forked from this small
 * process, not from the bench process whose event loop runs the API and the transmission worker.
 * IPC: sends {type:'ready', url, as2Id, certificatePem}; answers 'trust' (our certificate), 'stats' and 'close'.
 */
import fs from 'node:fs';
import { startAs2Peer } from '../test/support/transmission-peers.ts';

type Command = { type: 'trust'; pem: string } | { type: 'stats' } | { type: 'close' };

/** CPU seconds of this process and of the openssl processes it ran (/proc: utime, stime, cutime, cstime). */
function cpuSeconds() {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = [11, 12, 13, 14].map((i) => Number(fields[i]));
  return { self: (ticks[0] + ticks[1]) / 100, openssl: (ticks[2] + ticks[3]) / 100 };
}

const peer = await startAs2Peer(process.argv[2] ?? 'BENCH-AS2');
const send = (message: object) => process.send?.(message);
process.on('message', (command: Command) => {
  if (command.type === 'trust') {
    peer.trust(command.pem);
    send({ type: 'trusted' });
  } else if (command.type === 'stats')
    send({ type: 'stats', received: peer.received.size, rejected: peer.rejected.length, cpuSeconds: cpuSeconds() });
  else if (command.type === 'close') void peer.close().then(() => process.exit(0));
});
send({ type: 'ready', url: peer.url, as2Id: peer.as2Id, certificatePem: peer.certificatePem });
