/** Attribute of the elements that show the current calendar year (the footer's copyright line). */
export const CURRENT_YEAR_ATTRIBUTE = 'data-current-year';

/**
 * Writes the visitor's clock's year into every `[data-current-year]` element (spec §2, footer: "a
 * copyright line with the current year"). The prerendered HTML carries the year of the build; the
 * page script (src/lib/page-script.ts) runs this at `load`, so a page built or cached across New
 * Year is never stale for a visitor, with or without the framework.
 * @param win the page's window
 */
export function showCurrentYear(win: Window & typeof globalThis): void {
  const year = String(new win.Date().getFullYear());
  for (const element of win.document.querySelectorAll(`[${CURRENT_YEAR_ATTRIBUTE}]`))
    if (element.textContent !== year) element.textContent = year;
}
