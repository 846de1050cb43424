import { describe, expect, it } from 'vitest';
import { modules } from '@/content/modules';
import { pageRoutes } from '@/content/routes';
import { site } from '@/content/site';
import { buildLlmsTxt } from './llms-txt';

const base = 'https://www.nirmaya.example/';
const text = buildLlmsTxt(base);
const section = (name: string) => text.split(`## ${name}\n`)[1]?.split('\n## ')[0] ?? '';

describe('buildLlmsTxt (llmstxt.org format)', () => {
  it('starts with the brand as H1 and the product summary as a blockquote', () => {
    expect(text.split('\n').slice(0, 3)).toEqual([`# ${site.name}`, '', `> ${site.description}`]);
  });

  it('lists the nine modules in order, one line each, with their absolute URLs and summaries', () => {
    const lines = section('Modules').trim().split('\n');
    expect(lines).toEqual(
      modules.map(({ id, title, summary }) => `- [${title}](${base}products/${id}): ${summary}`),
    );
    expect(lines).toHaveLength(9);
  });

  it('lists every static page and the contact details', () => {
    for (const { title, path } of pageRoutes)
      expect(section('Pages')).toContain(`[${title}](${new URL(path, base).href})`);
    const contact = section('Contact');
    expect(contact).toContain(`(${base}contact-us)`);
    expect(contact).toContain(site.email);
    expect(contact).toContain(site.phone);
    expect(contact).toContain('Bengaluru');
  });

  it('holds only absolute links on the given site', () => {
    const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]);
    expect(links.length).toBeGreaterThan(9);
    for (const link of links) expect(link?.startsWith(base)).toBe(true);
  });
});
