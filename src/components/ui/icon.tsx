import { createElement } from 'react';
import type { LucideIcon } from 'lucide-react';

/** The drawing of a lucide icon, as lucide-react keeps it: `[tag, attributes]` per shape. */
type IconData = {
  name?: string;
  size?: number;
  aliases?: unknown[];
  node: [string, Record<string, string | number>][];
};

const dataOf = new WeakMap<LucideIcon, IconData>();

/**
 * The drawing of a lucide-react icon. lucide-react's icon components are thin wrappers that render
 * its `Icon` with the drawing as the `icon` prop; calling the wrapper's render function returns that
 * element without rendering it.
 *
 * @throws Error when a lucide-react upgrade changed that shape (the unit test and `npm run build`
 *   then fail, never a visitor's page).
 */
export function lucideIconData(icon: LucideIcon): IconData {
  const known = dataOf.get(icon);
  if (known) return known;
  const render = (icon as unknown as { render?: (props: object, ref: null) => unknown }).render;
  const element = render?.({}, null) as { props?: { icon?: IconData } } | undefined;
  const data = element?.props?.icon;
  if (!data || !Array.isArray(data.node))
    throw new Error(`lucide-react icon ${icon.displayName ?? ''} without its drawing`);
  dataOf.set(icon, data);
  return data;
}

/**
 * A lucide icon drawn as plain SVG, the same markup lucide-react renders (`lucide lucide-{name}`
 * classes, 24 px box, 2 px round stroke in `currentColor`, `aria-hidden` unless labelled).
 * lucide-react's own `Icon` is a client component (it reads an icon context), so each icon a server
 * component renders with it is a client element the browser loads code for and hydrates; this one
 * is not. Usable from client components too.
 *
 * @param icon The lucide-react icon, e.g. `ChevronRight`.
 */
export function StaticIcon({
  icon,
  className,
  strokeWidth = 2,
  ...props
}: { icon: LucideIcon } & React.SVGProps<SVGSVGElement>) {
  const { name, size = 24, aliases = [], node } = lucideIconData(icon);
  const labelled = Object.entries(props).some(
    ([key, value]) =>
      (key.startsWith('aria-') || key === 'role' || key === 'title') && value != null,
  );
  const classes = [
    'lucide',
    ...(name ? [`lucide-${name}`] : []),
    ...aliases
      .filter((alias) => typeof alias === 'string' && alias.trim())
      .map((a) => `lucide-${a}`),
    ...(className?.split(/\s+/) ?? []),
  ].filter(Boolean);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox={`0 0 ${size} ${size}`}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={[...new Set(classes)].join(' ')}
      aria-hidden={labelled ? undefined : 'true'}
      {...props}
    >
      {node.map(([tag, attributes]) => createElement(tag, attributes))}
    </svg>
  );
}
