import { consoleAuth } from '@/server/features/console/routes';

/**
 * The sign-in link's target: better-auth checks the single-use token, starts the session (its
 * cookie) and redirects to the console, or to the sign-in page with `?link=failed`. Only this
 * endpoint of better-auth is exposed: a link is asked for through the sign-in page's action,
 * which rate-limits and e-mails operators only.
 */
export async function GET(request: Request): Promise<Response> {
  const { auth } = await consoleAuth();
  return auth.handler(request);
}
