/**
 * Next.js start hook: opens the database, applies migrations and starts the queue worker in the
 * Node.js server process. Skipped in the Edge runtime and during `next build`.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs' || process.env.NEXT_PHASE === 'phase-production-build')
    return;
  const { startServer } = await import('./server/wiring/startup');
  await startServer();
}
