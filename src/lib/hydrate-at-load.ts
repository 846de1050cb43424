/**
 * Props that make the page's loader start the framework at `load` rather than on the visitor's
 * first interaction (src/lib/page-loader.ts, `HYDRATE_AT_LOAD_ATTRIBUTE`, which a test keeps
 * equal): for an element that only the browser can fill as soon as the page opens, e.g. the 404
 * page's breadcrumb trail (the URL asked for) or a demo's time in the visitor's own zone.
 */
export const hydrateAtLoad = { 'data-hydrate-at-load': '' } as const;
