import 'server-only';

export { takeBackup, type BackupOptions, type BackupResult } from './take';
export { restoreBackup, type RestoreOptions } from './restore';
export type { BackupHeader } from './file';
