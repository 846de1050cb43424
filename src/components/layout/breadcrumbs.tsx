import { ChevronRight } from 'lucide-react';
import { StaticIcon } from '@/components/ui/icon';
import { BreadcrumbTrail } from './breadcrumb-trail';

/**
 * The breadcrumb trail under the header (spec §2; see {@link BreadcrumbTrail}). A server component
 * that draws the right-pointing chevron separator, so the client side loads no icon code.
 *
 * @param siteUrl The site's base URL (`SITE_URL`) for the trail's JSON-LD.
 */
export function Breadcrumbs({ siteUrl }: { siteUrl: string }) {
  return (
    <BreadcrumbTrail
      siteUrl={siteUrl}
      separator={
        <StaticIcon
          icon={ChevronRight}
          aria-hidden="true"
          className="size-2 shrink-0 text-slate-500"
        />
      }
    />
  );
}
