import { contactChallenge } from '@/server/features/contact';
import { errorFacts, log } from '@/server/platform/log';

export const dynamic = 'force-dynamic';

const noStore = { 'Cache-Control': 'no-store' };

/**
 * GET /api/altcha?form=<form token>: a fresh ALTCHA proof-of-work challenge for that form, fetched
 * by the widget of the contact and privacy-request forms (any form token of the site). Never
 * cached. 400 when the form token is missing, forged or expired; 503 when the database (which holds the site secret) is unavailable.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const challenge = await contactChallenge(new URL(request.url).searchParams.get('form'));
    if (!challenge) return new Response(null, { status: 400, headers: noStore });
    return Response.json(challenge, { headers: noStore });
  } catch (error) {
    log.error({ event: 'altcha.challenge_failed', error: errorFacts(error) });
    return new Response(null, { status: 503, headers: noStore });
  }
}
