import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'

// axe-core in real Chromium: its rules for WCAG 2.2 A and AA and its best practices.
const RULES = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/**
 * What axe finds on the page as it is now, or only within `include` (a CSS selector): each rule once, with at most five
 * of the elements it found.
 */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  const builder = new AxeBuilder({ page }).withTags(RULES)
  const { violations } = await (include ? builder.include(include) : builder).analyze()
  return violations.map(
    ({ id, help, nodes }) =>
      `${id}: ${help} (${nodes.length}): ${nodes
        .slice(0, 5)
        .map((node) => node.target.join(' '))
        .join(' | ')}`,
  )
}
