/**
 * Layout of the legal and statement pages (terms, privacy, accessibility): the MDX content in a
 * narrow, readable column. A server component; the root layout supplies header, `<main>` and footer.
 */
export default function LegalLayout({ children }: { children: React.ReactNode }) {
  return <article className="mx-auto max-w-3xl px-2 pt-4 pb-8 sm:px-3 sm:pt-5">{children}</article>;
}
