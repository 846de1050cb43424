/**
 * Texts of the manage link's hand-over page: when another site's link (a webmail tab) opens the
 * manage page, the browser withholds its strict cookie, and this page reloads the manage page
 * at once (src/server/features/demos/manage-link.ts); the link is for a browser that does not follow
 * `<meta http-equiv="refresh">`.
 */
export const manageHandOver = {
  title: 'Manage your demo',
  link: 'Open your demo',
};
