import type { Locator, Page } from '@playwright/test';

/** CSS selector of the mobile menu's toggle: the `<summary>` of the header's `<details>` that holds a navigation. */
const TOGGLE = 'header details:has(nav) > summary';

/**
 * The mobile menu's toggle (src/components/layout/mobile-menu.tsx). Playwright gives `<summary>`
 * no role, so it is found by its markup; what assistive technology gets is read from Chromium
 * (`toggleState`).
 */
export function mobileMenuToggle(page: Page): Locator {
  return page.locator(TOGGLE);
}

/**
 * What Chromium's accessibility tree (what screen readers read) says of the mobile menu's toggle:
 * its role, accessible name and expanded state. Read through the DevTools protocol, so it works
 * with JavaScript off too.
 */
export async function toggleState(
  page: Page,
): Promise<{ role: string; name: string; expanded: boolean | undefined }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: TOGGLE,
    });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', {
      nodeId,
      fetchRelatives: false,
    });
    const node = nodes[0]!;
    const expanded = node.properties?.find((property) => property.name === 'expanded');
    return {
      role: String(node.role?.value ?? ''),
      name: String(node.name?.value ?? ''),
      expanded: expanded === undefined ? undefined : Boolean(expanded.value.value),
    };
  } finally {
    await cdp.detach();
  }
}
