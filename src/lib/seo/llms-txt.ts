import { modules } from '@/content/modules';
import { pageRoutes } from '@/content/routes';
import { addressLines, site } from '@/content/site';
import { resolveSitePath } from './url';

/**
 * The text of `/llms.txt` (the llmstxt.org format: H1, a summary blockquote, then sections of
 * link lists in Markdown) for AI-assisted procurement research: what the product is, the nine
 * modules with one line and a URL each, the other pages, and how to get in touch. Built from the
 * same content modules and registries as the pages, so it never disagrees with them.
 *
 * @param base The site URL (`SITE_URL`) the links are made absolute against.
 */
export function buildLlmsTxt(base: string | URL): string {
  const url = (path: string) => resolveSitePath(path, base);
  const contactUrl = url('/contact-us');
  return [
    `# ${site.name}`,
    '',
    `> ${site.description}`,
    '',
    `${site.name} was established in ${site.foundedYear}, builds ${site.product} and contributes to open-source health projects. ${site.product} is made of nine modules that share one patient record; it is also offered as software as a service (SaaS), hosted in the cloud and used from a web browser.`,
    '',
    '## Modules',
    '',
    ...modules.map(({ title, link, summary }) => `- [${title}](${url(link)}): ${summary}`),
    '',
    '## Pages',
    '',
    ...pageRoutes.map(({ title, path }) => `- [${title}](${url(path)})`),
    '',
    '## Contact',
    '',
    `- Demo requests and enquiries: [contact form](${contactUrl})`,
    `- E-mail: ${site.email}`,
    `- Phone: ${site.phone}`,
    `- Office: ${addressLines.join(', ')}`,
    '',
  ].join('\n');
}
