/**
 * What the browser tests share: Debian's Chromium driven by playwright-core
 * (headless, --no-sandbox, background networking disabled) against a test
 * Atrium with two users in one workspace, signed-in pages (a session made
 * through the API, or through the sign-in form where that is what a test
 * checks), the errors each page reports, and a way to hold a page's
 * reconnection while the server changes things. Without /usr/bin/chromium
 * the suites are skipped with a loud warning (`.ci/run` installs it).
 */
import { existsSync, mkdirSync } from "node:fs"
import path from "node:path"
import { type Browser, type BrowserContext, chromium, type Page, type Route } from "playwright-core"
import { expect } from "vitest"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

/** Screenshots land here (not committed). */
export const SHOTS = path.join(process.cwd(), "test-results", "web")

/** Whether Chromium is installed; warns loudly for `suite` when it is not. */
export const chromiumAvailable = (suite: string): boolean => {
  if (existsSync(CHROMIUM)) return true
  console.warn(
    `\n${"!".repeat(78)}\n!! ${suite} SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run does)\n${"!".repeat(78)}\n`
  )
  return false
}

export type User = Awaited<ReturnType<typeof signUp>>

export class BrowserRig {
  private readonly contexts: Array<BrowserContext> = []
  /** `pageerror`s of every page (uncaught exceptions in the app). */
  readonly pageErrors: Array<string> = []
  /** Console errors of every page, with the signed-in user's e-mail. */
  readonly consoleErrors: Array<string> = []

  private constructor(
    readonly atrium: TestServer,
    private readonly browser: Browser,
    readonly owner: User,
    readonly member: User,
    readonly workspaceId: string
  ) {}

  /** Atrium, Chromium, an owner (Ann) and a member (Ben) of a workspace called `workspaceName`. */
  static async start(workspaceName: string): Promise<BrowserRig> {
    mkdirSync(SHOTS, { recursive: true })
    const atrium = await startAtrium()
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-background-networking", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"]
    })
    const owner = await signUp(atrium, "Ann")
    const member = await signUp(atrium, "Ben")
    const workspaceId = (await BrowserRig.request(atrium, owner, "POST", "/pm/v1/workspaces", { name: workspaceName })).id
    await BrowserRig.request(atrium, owner, "POST", `/pm/v1/workspaces/${workspaceId}/members`, { email: member.email, role: "member" })
    return new BrowserRig(atrium, browser, owner, member, workspaceId)
  }

  private static async request(atrium: TestServer, user: User, method: string, url: string, body?: unknown) {
    const response = await atrium.request(method, url, { token: user.token, ...(body !== undefined ? { body } : {}) })
    if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${response.text}`)
    return response.body
  }

  /** An API call as `user`; anything but 2xx fails the test. */
  call(user: User, method: string, url: string, body?: unknown) {
    return BrowserRig.request(this.atrium, user, method, url, body)
  }

  /** A page in a new browser context; `user` names its console errors. */
  async newPage(width = 1280, user?: User): Promise<Page> {
    const context = await this.browser.newContext({ viewport: { width, height: 860 } })
    this.contexts.push(context)
    const page = await context.newPage()
    const who = user === undefined ? "visitor" : user.email
    page.on("console", (message) => {
      if (message.type() === "error") this.consoleErrors.push(`${who}: ${message.text()}`)
    })
    page.on("pageerror", (error) => this.pageErrors.push(`${who}: ${error.message}`))
    return page
  }

  /**
   * A new page at `route`, signed in as `user` with a session of its own made
   * through the API and stored where the app keeps it (web/src/api/session.ts)
   * before the app's first load: one page load instead of the sign-in form's
   * two. Each page gets its own token pair, as a sign-in would, since refresh
   * tokens are spent when used. The session is stored once per tab, so a
   * later sign-out stays signed out. (Not `storageState`: Playwright fills
   * that through an extra page, another renderer to start.)
   */
  async signedIn(user: User, route: string, width?: number): Promise<Page> {
    const login = await this.atrium.request("POST", "/pm/v1/auth/login", { body: { email: user.email, password: user.password } })
    if (login.status !== 200) throw new Error(`login failed: ${login.status} ${login.text}`)
    const { accessToken, refreshToken, user: signedInUser } = login.body
    const session = JSON.stringify({ accessToken, refreshToken, user: signedInUser })
    const page = await this.newPage(width, user)
    // A script as text: the test's own TypeScript has no DOM types.
    await page.addInitScript(`if (location.origin === ${JSON.stringify(this.atrium.origin)} && sessionStorage.getItem("test.sessionStored") === null) {
      sessionStorage.setItem("test.sessionStored", "1")
      localStorage.setItem("atrium.session", ${JSON.stringify(session)})
    }`)
    await page.goto(`${this.atrium.origin}/${route}`)
    return page
  }

  /** A new page signed in as `user` through the sign-in form, then at `route` (for the tests of signing in). */
  async signedInThroughForm(user: User, route: string, width?: number): Promise<Page> {
    const page = await this.newPage(width, user)
    await page.goto(`${this.atrium.origin}/`)
    await page.getByLabel("Email").fill(user.email)
    await page.getByLabel("Password").fill(user.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Sign out" }).waitFor()
    await page.goto(`${this.atrium.origin}/${route}`)
    return page
  }

  /**
   * The server closes the member's live socket (their role changes to viewer);
   * while the page shows it is reconnecting, its ticket requests (`ticketUrl`)
   * are held and `meanwhile` runs; then they are released.
   */
  async whileReconnectionHeld(page: Page, ticketUrl: string, meanwhile: () => Promise<unknown>): Promise<void> {
    const held: Array<Route> = []
    let released = false
    await page.route(ticketUrl, (route) => {
      if (released) return route.continue()
      held.push(route)
    })
    await this.call(this.owner, "PATCH", `/hub/v1/workspaces/${this.workspaceId}/members/${this.member.userId}`, { role: "viewer" })
    await expect.poll(() => held.length, { timeout: 10_000 }).toBeGreaterThan(0)
    // The view's own indicator or the app's "offline — reconnecting" banner (both are down).
    await page.getByText("reconnecting…").first().waitFor()
    await meanwhile()
    released = true
    for (const route of held) await route.continue()
    await page.unroute(ticketUrl)
  }

  async close(): Promise<void> {
    for (const context of this.contexts) await context.close().catch(() => undefined)
    await this.browser.close()
    await this.atrium.close()
  }
}
