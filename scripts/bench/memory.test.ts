import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listeningInodes, listeningProcess, parentPid, residentMB, vmRssKiB } from './memory.mjs';

describe('vmRssKiB', () => {
  it('reads the VmRSS line of /proc/<pid>/status in KiB', () => {
    const status = [
      'Name:\tnext-server (v16.4.6)',
      'VmPeak:\t 1254400 kB',
      'VmHWM:\t  532112 kB',
      'VmRSS:\t  498176 kB',
      'RssAnon:\t  401234 kB',
    ].join('\n');
    expect(vmRssKiB(status)).toBe(498_176);
  });

  it('refuses a status without a VmRSS line (a kernel thread)', () => {
    expect(() => vmRssKiB('Name:\tkthreadd\nState:\tS (sleeping)\n')).toThrow(/no VmRSS/);
  });
});

describe('parentPid', () => {
  it('reads the fourth field, after a command name holding spaces and parentheses', () => {
    expect(parentPid('4242 (next-server (v16) x) S 4100 4100 4000 0 -1 4194560 1 0')).toBe(4100);
  });

  it('refuses a text of another shape', () => {
    expect(() => parentPid('not a stat line')).toThrow(/not a \/proc/);
  });
});

describe('listeningInodes', () => {
  // Port 3130 is 0x0C3A; state 0A is LISTEN, 01 ESTABLISHED.
  const table = [
    '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
    '   0: 0100007F:0C3A 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 81234 1 0000 100 0 0 10 0',
    '   1: 0100007F:0C3A 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000  1000        0 81299 1 0000 20 4 30 10 -1',
    '   2: 0100007F:0C3B 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 81300 1 0000 100 0 0 10 0',
    '',
  ].join('\n');

  it('names the sockets listening on the port, not its connections or other ports', () => {
    expect(listeningInodes(table, 3130)).toEqual(['81234']);
    expect(listeningInodes(table, 3131)).toEqual(['81300']);
    expect(listeningInodes(table, 80)).toEqual([]);
  });

  it('reads IPv6 addresses (/proc/net/tcp6)', () => {
    const tcp6 = [
      '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 00000000000000000000000000000000:0C3A 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 90001 1 0000 100 0 0 10 0',
    ].join('\n');
    expect(listeningInodes(tcp6, 3130)).toEqual(['90001']);
  });
});

describe('listeningProcess and residentMB (this machine, /proc)', () => {
  it('finds the process that listens, below the one started', async () => {
    // A child that listens, as a start script may run the server in a child process.
    const child = spawn(
      process.execPath,
      [
        '-e',
        "const s=require('http').createServer();s.listen(0,'127.0.0.1',()=>console.log(s.address().port))",
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
      const port = Number(chunk.toString().trim());
      expect(listeningProcess(process.pid, port)).toBe(child.pid);
      expect(listeningProcess(child.pid as number, port)).toBe(child.pid);
    } finally {
      child.kill();
    }
  });

  it('takes the process itself when it listens, and itself when nothing below it does', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      expect(listeningProcess(process.pid, port)).toBe(process.pid);
    } finally {
      server.close();
    }
    expect(listeningProcess(process.pid, 1)).toBe(process.pid);
  });

  it("reads a process's resident memory in MB, as Node.js counts its own", () => {
    const own = process.memoryUsage().rss / 2 ** 20;
    const read = residentMB(process.pid);
    expect(read).toBeGreaterThan(own * 0.8);
    expect(read).toBeLessThan(own * 1.2);
  });
});
