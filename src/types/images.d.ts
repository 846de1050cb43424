// Types of image imports (`import hero from '…/hero.svg'`) as `next build` resolves them. Next.js
// references these from next-env.d.ts, which it generates and which is not committed, so the type
// check on a fresh clone (before any build) needs this reference too.
/// <reference types="next/image-types/global" />
