import { confirmSignIn } from '@/server/features/console';
import { consoleAuth, isConsolePost } from '@/server/features/console/routes';
import { readTextWithin } from '@/server/platform/http/read-body';

/**
 * Signing in: the sign-in confirmation page's button posts the link's token here. better-auth
 * checks the single-use token, starts the session (its cookie) and redirects to the console (or,
 * with a fresh sign-in's `pending`, to that operator's pending act), or to the sign-in page with
 * `?link=failed`. POST only, from this site only: the link itself opens the confirmation page,
 * so a mail gateway or a browser preview that fetches the link signs nobody in (a GET here
 * answers 405). Only this endpoint of better-auth is exposed.
 */
export async function POST(request: Request): Promise<Response> {
  const { auth, env } = await consoleAuth();
  if (!isConsolePost(request.headers, env.TRUST_PROXY))
    return new Response('Forbidden', { status: 403 });
  const body = await readTextWithin(request, 4096);
  if (body === null) return new Response('Payload Too Large', { status: 413 });
  const form = new URLSearchParams(body);
  return confirmSignIn(auth, form.get('token') ?? '', form.get('pending') ?? undefined);
}
