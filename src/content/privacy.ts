/**
 * The privacy notice's version (src/app/(legal)/privacy-policy/page.mdx): raise it, as the date of
 * the change, whenever the notice changes what is kept, for how long or who receives it. Each
 * enquiry stores the version in force when it was made (DPDP Act s.5, notice before consent).
 */
export const privacyNotice = {
  version: '2026-11-25',
} as const;
