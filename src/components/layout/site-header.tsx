import { ChevronDown, Menu, X } from 'lucide-react';
import { demoHref, navItems } from '@/content/navigation';
import { CtaLink } from '@/components/ui/cta';
import { StaticIcon } from '@/components/ui/icon';
import { Logo } from './logo';
import { MobileMenu } from './mobile-menu';
import { NavLink } from './nav-link';
import { ProductsMenu } from './products-menu';

/**
 * The navigation bar on every page (spec §2): Home, Products (dropdown of the nine modules),
 * About Us, Contact Us and a "Schedule a Demo" button; a menu toggle below the md breakpoint.
 * The menus are client islands; their icons are drawn here, on the server.
 */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
      <div className="relative mx-auto flex h-8 max-w-page items-center justify-between gap-2 px-2 sm:px-3">
        <Logo />
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {navItems.map((item) => (
              <li key={item.id}>
                {item.dropdown ? (
                  <ProductsMenu
                    chevron={
                      <StaticIcon
                        icon={ChevronDown}
                        aria-hidden="true"
                        className="size-2 transition-transform group-open:rotate-180"
                      />
                    }
                  />
                ) : (
                  <NavLink
                    href={item.target}
                    className="rounded px-1 py-1 font-medium hover:text-brand-800"
                  >
                    {item.title}
                  </NavLink>
                )}
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-1">
          <CtaLink href={demoHref} size="sm" className="max-sm:hidden">
            Schedule a Demo
          </CtaLink>
          <MobileMenu
            openIcon={<StaticIcon icon={Menu} aria-hidden="true" className="size-3" />}
            closeIcon={<StaticIcon icon={X} aria-hidden="true" className="size-3" />}
          />
        </div>
      </div>
    </header>
  );
}
