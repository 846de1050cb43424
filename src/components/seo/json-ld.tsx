import { serializeJsonLd, type JsonLdDocument } from '@/lib/seo/json-ld';

/** Structured data for search engines: one `<script type="application/ld+json">`, escaped. */
export function JsonLd({ data }: { data: JsonLdDocument }) {
  return (
    <script
      type="application/ld+json"
      dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }}
    />
  );
}
