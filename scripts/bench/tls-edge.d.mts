export declare function startTlsEdge(options: {
  port: number;
  targetPort: number;
}): Promise<{ url: string; stop: () => Promise<void> }>;
