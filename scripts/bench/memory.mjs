// Resident memory of the site's server process for `npm run bench`, read from Linux's /proc: the
// bench reports it at rest (after start and one request of each page) and after its load
// (docs/performance.md, "Memory").
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * The resident set size in a `/proc/<pid>/status` text, in KiB (the `VmRSS:` line, which Linux
 * writes in "kB" of 1,024 bytes).
 * @param {string} status the file's text
 * @returns {number}
 * @throws Error when the text has no `VmRSS:` line (a kernel thread, or a process already gone)
 */
export function vmRssKiB(status) {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match) throw new Error('no VmRSS line in /proc/<pid>/status');
  return Number(match[1]);
}

/**
 * The parent process id in a `/proc/<pid>/stat` text. The command name (second field, in
 * parentheses) may hold spaces and parentheses, so fields are counted after its last `)`.
 * @param {string} stat the file's text
 * @returns {number}
 * @throws Error when the text does not have that shape
 */
export function parentPid(stat) {
  const fields = stat
    .slice(stat.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/);
  const ppid = Number(fields[1]);
  if (!Number.isInteger(ppid)) throw new Error(`not a /proc/<pid>/stat text: ${stat.slice(0, 80)}`);
  return ppid;
}

/**
 * The inodes of the sockets listening on TCP `port`, from the text of `/proc/net/tcp` or
 * `/proc/net/tcp6` (local address `ADDR:PORT` in hexadecimal, state `0A` is LISTEN).
 * @param {string} table the file's text
 * @param {number} port
 * @returns {string[]}
 */
export function listeningInodes(table, port) {
  const inodes = [];
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    const local = fields[1];
    if (!local || fields[3] !== '0A') continue;
    if (parseInt(local.slice(local.lastIndexOf(':') + 1), 16) === port && fields[9])
      inodes.push(fields[9]);
  }
  return inodes;
}

/** `pid` and every process below it, from /proc (pids of processes gone meanwhile included). */
function processTree(pid) {
  const children = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let ppid;
    try {
      ppid = parentPid(readFileSync(`/proc/${name}/stat`, 'utf8'));
    } catch {
      continue; // gone since the listing
    }
    children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
  }
  const tree = [];
  for (const queue = [pid]; queue.length > 0;) {
    const next = /** @type {number} */ (queue.shift());
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/**
 * The process that serves `port`: of `pid` (the process the bench started) and the processes
 * below it, the one holding the socket that listens on `port` (a start script may run the server
 * in a child); `pid` itself when none of them is seen to hold it.
 * @param {number} pid
 * @param {number} port
 * @returns {number}
 */
export function listeningProcess(pid, port) {
  const inodes = new Set(
    ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((file) => {
      try {
        return listeningInodes(readFileSync(file, 'utf8'), port);
      } catch {
        return [];
      }
    }),
  );
  for (const candidate of processTree(pid)) {
    let fds;
    try {
      fds = readdirSync(`/proc/${candidate}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      let target;
      try {
        target = readlinkSync(`/proc/${candidate}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode)) return candidate;
    }
  }
  return pid;
}

/**
 * The resident memory of process `pid` now, in MB of 2^20 bytes (as `ps` and `top` count), from
 * `/proc/<pid>/status`.
 * @param {number} pid
 * @returns {number}
 * @throws Error when the process or its status cannot be read (not Linux, or gone)
 */
export function residentMB(pid) {
  return vmRssKiB(readFileSync(`/proc/${pid}/status`, 'utf8')) / 1024;
}
