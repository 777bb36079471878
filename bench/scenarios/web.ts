/**
 * web: the browser app as people meet it, in Debian's headless Chromium
 * (playwright-core) against one Atrium (server/main.ts, PGlite, `--demo`):
 * - the JavaScript a first visit to the home page downloads (bytes on the
 *   wire, gzipped) and every area's chunk, which loads only when its area opens;
 * - time to interactive of the demo's home page, cold (a new browser context:
 *   no HTTP cache) and warm (a page switch inside the app, from its query cache);
 * - live latency browser to browser: Ada moves a card on a board with the
 *   keyboard, Ben's board (another browser context) shows it in its new column.
 * Times are taken inside the pages (performance.now, a MutationObserver), so
 * the driver's polling adds nothing.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import type { BrowserContext, Page } from "playwright-core"
import { DEMO_EMAIL, DEMO_PASSWORD, DEMO_SECOND_EMAIL } from "../../facade/DemoContent.ts"
import { percentile, pointOfSamples } from "../load/Samples.ts"
import { startHttpServer, tsNode } from "../process.ts"
import type { Scenario, Target } from "../Scenario.ts"
import { seedPglite } from "../../tools/PgliteTemplate.ts"

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const FIRST_ROUTE_BUDGET_KB = 250
const LIVE_BUDGET_MS = 1000

/**
 * Installed in every page before the app loads (plain JavaScript: the bench compiles without the DOM's types).
 * `__appeared(selector, text)` resolves with performance.now() at the first DOM change after which an element
 * matching `selector` holds `text`; `__cardIn(status, name)` with the wall-clock time (timeOrigin + now) at which
 * a link holding `name` is inside the region labelled `status` (a board column). Both resolve at once if true now.
 */
const OBSERVERS = `
const when = (found, clock) => new Promise((resolve) => {
  if (found()) return resolve(clock())
  const watch = new MutationObserver(() => {
    if (!found()) return
    watch.disconnect()
    resolve(clock())
  })
  watch.observe(document, { childList: true, subtree: true, characterData: true, attributes: true })
})
const labelOf = (el) => el.getAttribute("aria-label") ?? document.getElementById(el.getAttribute("aria-labelledby") ?? "")?.textContent ?? ""
window.__appeared = (selector, text) =>
  when(() => [...document.querySelectorAll(selector)].some((el) => (el.textContent ?? "").includes(text)), () => performance.now())
window.__cardIn = (status, name) =>
  when(
    () => [...document.querySelectorAll("[aria-label], [aria-labelledby]")].some(
      (region) => labelOf(region).trim() === status && [...region.querySelectorAll("a")].some((a) => (a.textContent ?? "").includes(name))
    ),
    () => performance.timeOrigin + performance.now()
  )
`

interface Api {
  readonly call: (method: string, path: string, body?: unknown) => Promise<any>
}

const apiAs = async (origin: string, email: string): Promise<Api> => {
  const login = await fetch(`${origin}/pm/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password: DEMO_PASSWORD })
  })
  if (login.status !== 200) throw new Error(`login ${email}: ${login.status} ${await login.text()}`)
  const token = ((await login.json()) as { accessToken: string }).accessToken
  return {
    call: async (method, path, body) => {
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`)
      return text === "" ? undefined : JSON.parse(text)
    }
  }
}

/** A browser context signed in as `email` through the sign-in form; its storage (the session) is reused by later contexts. */
const signedInState = async (context: BrowserContext, origin: string, email: string) => {
  const page = await context.newPage()
  await page.goto(`${origin}/sign-in`)
  await page.getByLabel("Email").fill(email)
  await page.getByLabel("Password").fill(DEMO_PASSWORD)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 60_000 })
  const state = await context.storageState()
  await page.close()
  return state
}

/** The built bundle's folder: the one holding the entry script index.html names. */
const bundleDir = (root: string, indexHtml: string): string => {
  const entry = /\/assets\/(app-[\w-]+\.js)/.exec(indexHtml)?.[1]
  const builds = join(root, "web", "build")
  const dir = readdirSync(builds)
    .map((name) => join(builds, name))
    .find((dir) => entry !== undefined && existsSync(join(dir, "assets", entry)))
  if (dir === undefined) throw new Error(`no build in ${builds} holds the entry script ${entry}`)
  return dir
}

export const web: Scenario = {
  name: "web",
  subject:
    "The web app in headless Chromium: JavaScript of the first route and per area (gzipped), time to interactive of the demo's home (cold and warm), live latency browser to browser",
  baselines: [
    `none: the issue's fixed budgets (first route ≤ ${FIRST_ROUTE_BUDGET_KB} KB gzipped, a remote change within ${LIVE_BUDGET_MS} ms)`
  ],
  levels: { sweep: [1], smoke: 1 },
  workload: (options) => [
    "Atrium: server/main.ts with --demo (PGlite in a temp dir); Debian's Chromium, headless, driven by playwright-core; the web app built on first start.",
    `Cold: ${options.smoke ? 1 : 10} visits of the demo's home (/w/{workspace}) as Ada, each in a new browser context holding only her session (no HTTP cache); time to interactive = navigation start → the home's heading rendered with the workspace's name; JavaScript = encoded bytes of every script response of the visit.`,
    `Warm: ${options.smoke ? 1 : 10} rounds of page switches Home → Work → Home by the app's navigation links in one context; click → the area's heading rendered.`,
    `Live: ${options.smoke ? 2 : 20} moves of one card between two columns of a board by the keyboard (Shift+→ / Shift+←) in Ada's page; latency = key press → the card rendered in its new column in Ben's page (another context).`
  ],
  estimateSec: (options) => (options.smoke ? 45 : 120),
  run: async (options, progress) => {
    if (!existsSync(CHROMIUM)) return { notBuilt: `not built here: no Chromium at ${CHROMIUM} (apt-get install chromium)` }
    const dataDir = mkdtempSync(join(tmpdir(), "atrium-bench-web-"))
    await seedPglite(dataDir)
    const [command, args] = tsNode(join(options.root, "server/main.ts"))
    progress.update(0.02, "Atrium with the demo (builds the web app if needed)")
    const server = await startHttpServer({
      label: "server/main.ts",
      command,
      args,
      cwd: options.root,
      env: { HOST: "127.0.0.1", NATS_URL: "", DEMO: "1", DATABASE_URL: "", DATA_DIR: dataDir },
      readyPath: "/healthz",
      timeoutMs: 240_000
    })
    // Loaded here, not with the runner: playwright-core costs every bench run about two seconds of CPU to import.
    const { chromium } = await import("playwright-core")
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"]
    })
    try {
      const origin = server.url
      // The demo is seeded after the banner: wait until the server says it is done.
      for (let waited = 0; !/Demo data seeded|Demo: the store is not empty/.test(server.output()); waited += 100) {
        if (waited > 180_000) throw new Error(`the demo was not seeded within 3 minutes:\n${server.output().slice(-2000)}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const ada = await apiAs(origin, DEMO_EMAIL)
      const workspace = ((await ada.call("GET", "/pm/v1/workspaces")).items as Array<{ id: string; name: string }>)[0]!
      const space = await ada.call("POST", `/pm/v1/workspaces/${workspace.id}/spaces`, { name: "Bench" })
      const list = await ada.call("POST", `/pm/v1/spaces/${space.id}/lists`, { name: "Live board" })
      const statuses = ((await ada.call("GET", `/pm/v1/lists/${list.id}/statuses`)).items as Array<{ name: string }>).map((s) => s.name)
      const cardName = "Watch this card move"
      await ada.call("POST", `/pm/v1/lists/${list.id}/tasks`, { name: cardName })

      const adaState = await signedInState(await browser.newContext(), origin, DEMO_EMAIL)
      const benState = await signedInState(await browser.newContext(), origin, DEMO_SECOND_EMAIL)
      const contextFor = async (state: Awaited<ReturnType<typeof signedInState>>, width = 1400) => {
        const context = await browser.newContext({ viewport: { width, height: 900 }, storageState: state })
        await context.addInitScript({ content: OBSERVERS })
        return context
      }
      const appeared = (page: Page, selector: string, text: string): Promise<number> =>
        page.evaluate(`window.__appeared(${JSON.stringify(selector)}, ${JSON.stringify(text)})`)

      // Cold visits of the home page.
      const visits = options.smoke ? 1 : 10
      const cold: Array<number> = []
      const scriptBytes: Array<number> = []
      for (let i = 0; i < visits; i++) {
        progress.update(0.1 + (0.3 * i) / visits, `cold visit ${i + 1}/${visits}`)
        const context = await contextFor(adaState)
        const page = await context.newPage()
        const scripts: Array<Promise<number>> = []
        page.on("response", (response) => {
          if (response.request().resourceType() === "script")
            scripts.push(
              response
                .request()
                .sizes()
                .then((sizes) => sizes.responseBodySize)
            )
        })
        await page.goto(`${origin}/w/${workspace.id}`)
        cold.push(await appeared(page, "h1", workspace.name))
        await page.waitForLoadState("networkidle")
        scriptBytes.push((await Promise.all(scripts)).reduce((sum, n) => sum + n, 0))
        await context.close()
      }

      // Warm switches inside the app.
      progress.update(0.45, "warm page switches")
      const warm: Array<number> = []
      {
        const context = await contextFor(adaState)
        const page = await context.newPage()
        await page.goto(`${origin}/w/${workspace.id}`)
        await appeared(page, "h1", workspace.name)
        const nav = page.getByRole("navigation", { name: "Areas" })
        // One round first, so both areas' chunks and queries are in the app's cache.
        for (let i = 0; i <= (options.smoke ? 1 : 10); i++) {
          for (const [link, heading] of [
            ["Work", "Work"],
            ["Home", workspace.name]
          ] as const) {
            const shown = appeared(page, "h1", heading)
            const started: number = await page.evaluate("performance.now()")
            await nav.getByRole("link", { name: link, exact: true }).click()
            const at = await shown
            if (i > 0) warm.push(Math.max(0, at - started))
            await page.waitForLoadState("networkidle")
          }
        }
        await context.close()
      }

      // Live: Ada moves the card, Ben sees it.
      progress.update(0.65, "live latency between two browsers")
      const live: Array<number> = []
      {
        const board = `${origin}/w/${workspace.id}/work/lists/${list.id}`
        const adaPage = await (await contextFor(adaState)).newPage()
        const benPage = await (await contextFor(benState)).newPage()
        for (const page of [adaPage, benPage]) {
          await page.goto(board)
          await page
            .getByRole("region", { name: statuses[0]!, exact: true })
            .getByRole("link", { name: new RegExp(cardName) })
            .waitFor()
        }
        const moves = options.smoke ? 2 : 20
        for (let i = 0; i < moves; i++) {
          const [from, to, key] =
            i % 2 === 0 ? [statuses[0]!, statuses[1]!, "Shift+ArrowRight"] : [statuses[1]!, statuses[0]!, "Shift+ArrowLeft"]
          const seen: Promise<number> = benPage.evaluate(`window.__cardIn(${JSON.stringify(to)}, ${JSON.stringify(cardName)})`)
          const card = adaPage.getByRole("region", { name: from, exact: true }).getByRole("link", { name: new RegExp(cardName) })
          await card.focus()
          const pressed: number = await adaPage.evaluate("performance.timeOrigin + performance.now()")
          await adaPage.keyboard.press(key)
          live.push(Math.max(0, (await seen) - pressed))
          await adaPage
            .getByRole("region", { name: to, exact: true })
            .getByRole("link", { name: new RegExp(cardName) })
            .waitFor()
          progress.update(0.65 + (0.3 * (i + 1)) / moves, `live move ${i + 1}/${moves}`)
        }
      }

      // Chunks: every area's script, gzipped as the server sends it.
      const indexHtml = await (await fetch(`${origin}/`)).text()
      const assets = join(bundleDir(options.root, indexHtml), "assets")
      const chunks = readdirSync(assets)
        .filter((name) => name.endsWith(".js"))
        .map((name) => ({ name, gz: gzipSync(readFileSync(join(assets, name)), { level: 9 }).byteLength }))
        .sort((a, b) => b.gz - a.gz)
      const firstRouteKb = Math.max(...scriptBytes) / 1024
      const liveP99 = percentile(live, 0.99)
      const targets: Array<Target> = [
        {
          target: `the first route's JavaScript ≤ ${FIRST_ROUTE_BUDGET_KB} KB gzipped (the demo's home, a first visit)`,
          figure: `${firstRouteKb.toFixed(0)} KB on the wire (${scriptBytes.length} visits, largest)`,
          met: firstRouteKb <= FIRST_ROUTE_BUDGET_KB
        },
        {
          target: `a remote change appears within ${LIVE_BUDGET_MS} ms (browser to browser)`,
          figure: `p50 ${percentile(live, 0.5).toFixed(0)} ms, p99 ${liveP99.toFixed(0)} ms, max ${Math.max(...live).toFixed(0)} ms over ${live.length} moves`,
          met: options.smoke ? undefined : Math.max(...live) <= LIVE_BUDGET_MS
        },
        {
          target: "a warm page switch renders from the cache (no wait on the network)",
          figure: `p50 ${percentile(warm, 0.5).toFixed(0)} ms, p99 ${percentile(warm, 0.99).toFixed(0)} ms (cold home: p50 ${percentile(cold, 0.5).toFixed(0)} ms)`,
          met: undefined
        }
      ]
      return {
        groups: [
          {
            name: "time to interactive of the demo's home",
            unit: "visit",
            series: [
              { label: "cold: new context, no HTTP cache", role: "subject", status: "ok", points: [pointOfSamples(cold)] },
              { label: "warm: a page switch inside the app", role: "subject", status: "ok", points: [pointOfSamples(warm)] }
            ]
          },
          {
            name: "a card moved on a board → shown in another browser",
            unit: "move",
            series: [
              { label: "key press (Ada) → card in its new column (Ben)", role: "subject", status: "ok", points: [pointOfSamples(live)] }
            ]
          }
        ],
        targets,
        notes: [
          `JavaScript of a first visit to the home: ${scriptBytes.map((b) => `${(b / 1024).toFixed(0)} KB`).join(", ")} (encoded bytes of the visit's script responses).`,
          `Chunks, gzipped at level 9 (as served): ${chunks.map((c) => `${c.name.replace(/-[\w-]+\.js$/, "")} ${(c.gz / 1024).toFixed(1)} KB`).join(", ")}.`,
          "Warm switches are timed from the click to the area's heading; the queries behind them may still refresh in the background (stale-while-revalidate)."
        ]
      }
    } finally {
      await browser.close().catch(() => undefined)
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
