import { honeypotField } from '@/lib/contact-fields';

/**
 * The bot trap of the site's forms (contact, privacy request): a text field hidden from sight,
 * keyboard and assistive technology, and named so that no autofill heuristic fills it for a real
 * visitor; a post with it filled is treated as a bot's (platform/security/bot-signal.ts).
 * @param id the field's id, unique on the page (e.g. `contact-xq`)
 */
export function Honeypot({ id }: { id: string }) {
  return (
    <div aria-hidden="true" className="absolute top-0 -left-[9999px] size-px overflow-hidden">
      <label htmlFor={id}>Leave this blank</label>
      <input
        id={id}
        type="text"
        name={honeypotField}
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}
