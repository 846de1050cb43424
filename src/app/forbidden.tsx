import { ErrorPageHeader } from '@/components/layout/error-page-header';
import { consoleText } from '@/content/console';

export const metadata = { title: consoleText.forbidden.title, robots: { index: false } };

/** The 403 page (`forbidden()`): an operator whose role does not allow the page or action. */
export default function Forbidden() {
  return (
    <div className="mx-auto max-w-page px-2 py-6 sm:px-3 md:py-8">
      <ErrorPageHeader
        status={403}
        title={consoleText.forbidden.title}
        paragraphs={[consoleText.forbidden.body]}
      />
    </div>
  );
}
