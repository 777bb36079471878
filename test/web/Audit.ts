/**
 * What every route of the web app is checked for in the browser tests:
 * axe-core (injected into the page) finds no serious or critical violation,
 * and a screenshot is saved at the page's width under test-results/web/
 * (not committed).
 */
import { createRequire } from "node:module"
import path from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { SHOTS } from "./BrowserRig.ts"

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js")

export interface Violation {
  readonly id: string
  readonly impact: string
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/** Contexts whose new documents get axe-core before their own scripts. */
const preloaded = new WeakSet<BrowserContext>()

/** axe-core's serious and critical violations on the page as it is now. */
export const seriousViolations = async (page: Page): Promise<Array<Violation>> => {
  if (!(await page.evaluate(() => "axe" in globalThis))) {
    await page.addScriptTag({ path: AXE })
    // The audits check route after route in one page: an init script costs each new document a fraction of
    // what a script tag of axe-core's 650 kB costs after the load (about a second each on a loaded machine).
    if (!preloaded.has(page.context())) {
      preloaded.add(page.context())
      await page.context().addInitScript({ path: AXE })
    }
  }
  return page.evaluate(async () => {
    const axe = (globalThis as any).axe
    const result = await axe.run((globalThis as any).document, { resultTypes: ["violations"] })
    return result.violations
      .filter((v: any) => v.impact === "serious" || v.impact === "critical")
      .map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n: any) => String(n.target)) }))
  })
}

/** Saves a full-page screenshot named after the route and the viewport's width. */
export const screenshot = async (page: Page, name: string): Promise<string> => {
  const width = page.viewportSize()?.width ?? 0
  const file = path.join(SHOTS, `${name}-${width}.png`)
  await page.screenshot({ path: file, fullPage: true })
  return file
}

/**
 * Runs `check` on the page at each of `widths` in turn, resizing it between them: the app lays out with CSS
 * alone (no script reads the window's size), so a resized page shows what a page loaded at that width shows,
 * and the route audits load each route once instead of once per width.
 */
export const atWidths = async (page: Page, widths: ReadonlyArray<number>, check: (width: number) => Promise<void>): Promise<void> => {
  for (const width of widths) {
    const viewport = page.viewportSize()
    if (viewport?.width !== width) await page.setViewportSize({ width, height: viewport?.height ?? 860 })
    await check(width)
  }
}
