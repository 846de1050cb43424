import { IconBrandLinkedin, IconBrandX, IconBrandYoutube } from '@tabler/icons-react';
import { site, type SocialProfile } from '@/content/site';

const icons = {
  LinkedIn: IconBrandLinkedin,
  X: IconBrandX,
  YouTube: IconBrandYoutube,
} satisfies Record<SocialProfile['name'], unknown>;

/**
 * The three social icons of the footer (spec §2), each with an accessible name. A profile whose URL
 * is still empty renders its icon without a link (DESIGN.md §5), so there is no dead link.
 */
export function SocialLinks() {
  return (
    <ul className="flex gap-1" aria-label="Social media">
      {site.social.map(({ name, url }) => {
        const Icon = icons[name];
        const icon = <Icon aria-hidden="true" className="size-3" stroke={1.75} />;
        const box = 'flex size-5 items-center justify-center rounded border border-slate-300';
        return (
          <li key={name}>
            {url ? (
              <a
                href={url}
                rel="me noopener"
                className={`${box} text-slate-700 hover:border-brand-700 hover:text-brand-800`}
              >
                {icon}
                <span className="sr-only">{`${site.name} on ${name}`}</span>
              </a>
            ) : (
              <span
                role="img"
                aria-label={`${name} (profile coming soon)`}
                title={`${name}: profile coming soon`}
                className={`${box} text-slate-500`}
              >
                {icon}
              </span>
            )}
          </li>
        );
      })}
    </ul>
  );
}
