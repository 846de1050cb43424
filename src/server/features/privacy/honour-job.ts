import 'server-only';
import { z } from 'zod';
import { defineJob } from '../../delivery/queue/job';

/** The `privacy.honour` job: does what a verified request asks (honour.ts runs it). */
export const honourJob = defineJob('privacy.honour', z.object({ requestId: z.uuid() }));
