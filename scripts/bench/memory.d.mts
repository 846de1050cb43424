/** Types of memory.mjs. */
export function vmRssKiB(status: string): number;
export function parentPid(stat: string): number;
export function listeningInodes(table: string, port: number): string[];
export function listeningProcess(pid: number, port: number): number;
export function residentMB(pid: number): number;
