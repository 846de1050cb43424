// No `import 'server-only'` here: this file is a worker thread's entry, never imported (so it cannot
// reach a browser bundle). Next.js bundles it as its own chunk (`new Worker(new URL(…))` in
// feeds.ts); under Vitest plain Node runs it through tsx, without the react-server condition, where
// that guard's default entry throws.
import { parentPort, workerData } from 'node:worker_threads';
import { busyIntervals, TooManyInstancesError } from '@/lib/demo/busy';
import type { FeedParseRequest, FeedParseResult } from './types';

/**
 * Parses one busy feed off the server's event loop: feeds.ts starts this worker with a
 * FeedParseRequest as `workerData`, and it posts back one FeedParseResult and ends. The parent
 * terminates it when it takes too long (a rule that expands to millions of instances).
 */
const request = workerData as FeedParseRequest;
let result: FeedParseResult;
try {
  result = {
    ok: true,
    busy: busyIntervals(request.ics, request.window, request.timeZone, request.maxInstances),
  };
} catch (error) {
  result = {
    ok: false,
    reason: error instanceof TooManyInstancesError ? 'too_many_instances' : 'invalid_calendar',
  };
}
parentPort!.postMessage(result);
