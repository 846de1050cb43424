import type { Metadata } from 'next';
import { consoleText } from '@/content/console';

/** Every console page: never indexed, never followed, no referrer to other sites. */
export const metadata: Metadata = {
  title: { default: consoleText.title, template: `%s | ${consoleText.title}` },
  robots: { index: false, follow: false },
  referrer: 'same-origin',
};

/** The console's frame around the sign-in page and the signed-in pages. */
export default function ConsoleRootLayout({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto w-full max-w-page px-2 py-3 sm:px-3 md:py-4">{children}</div>;
}
