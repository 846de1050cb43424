import { buildLlmsTxt } from '@/lib/seo/llms-txt';
import { siteUrl } from '@/lib/seo/site-url';

/** Generated once at build time, like the pages. */
export const dynamic = 'force-static';

/** `/llms.txt`: a Markdown summary of the site for AI assistants (see `buildLlmsTxt`). */
export function GET() {
  return new Response(buildLlmsTxt(siteUrl()), {
    headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  });
}
