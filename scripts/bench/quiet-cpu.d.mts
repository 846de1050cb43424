export declare function idleShare(sampleMs: number): Promise<number>;
export declare function waitForQuietCpu(options?: {
  threshold?: number;
  timeoutMs?: number;
  sample?: () => Promise<number>;
}): Promise<{ idle: number; quiet: boolean; samples: number }>;
