/**
 * The feedback roadmap in a real browser (Debian's Chromium via playwright-core,
 * as in browser.test.ts): requests created, voted and moved through the API
 * show up live; after the server closes the socket the view resumes with
 * `lastSeq` and catches up; a visitor without an account reads a public
 * board's roadmap by slug. Skipped with a loud warning without /usr/bin/chromium.
 */
import path from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BrowserRig, chromiumAvailable, SHOTS, type User } from "./BrowserRig.ts"

describe.skipIf(!chromiumAvailable("web roadmap tests"))("feedback roadmap in Chromium", () => {
  let rig: BrowserRig
  let owner: User
  let member: User
  let workspaceId: string
  let board: { id: string; slug: string }
  let statusOf: (type: string) => string
  const call = (user: User, method: string, url: string, body?: unknown) => rig.call(user, method, url, body)
  const newPage = () => rig.newPage(1400)
  const signedIn = (user: User, route: string): Promise<Page> => rig.signedIn(user, route, 1400)
  const pageErrors = () => rig.pageErrors

  const names: Record<string, string> = { open: "Open", planned: "Planned", in_progress: "In progress" }
  const column = (page: Page, type: string) => page.getByRole("list", { name: names[type] })
  const card = (page: Page, type: string, title: string) => column(page, type).getByRole("listitem").filter({ hasText: title })
  const post = (title: string) =>
    call(owner, "POST", `/feedback/v1/boards/${board.id}/feature-requests`, { title, description: `${title}, please.` })

  beforeAll(async () => {
    rig = await BrowserRig.start("Roadmap tests")
    ;({ owner, member, workspaceId } = rig)
    board = await call(owner, "POST", "/feedback/v1/boards", {
      workspaceId,
      name: "Product ideas",
      slug: `ideas-${workspaceId.slice(0, 8)}`,
      visibility: "public"
    })
    const statuses = (await call(owner, "GET", `/feedback/v1/boards/${board.id}/statuses`)).items as Array<{ id: string; type: string }>
    statusOf = (type) => statuses.find((s) => s.type === type)!.id
  }, 120_000)

  afterAll(async () => {
    await rig?.close()
  })

  it("picks the board from the workspace and follows created, voted and moved requests live, resuming with lastSeq", async () => {
    const dark = await post("Dark mode")
    const page = await signedIn(member, `w/${workspaceId}`)
    const sentFrames: Array<string> = []
    page.on("websocket", (socket) => socket.on("framesent", (frame) => sentFrames.push(String(frame.payload))))
    await page.getByRole("navigation", { name: "Areas" }).getByRole("link", { name: "Feedback" }).click()
    await page.getByRole("link", { name: "Product ideas", exact: true }).click()
    await page.getByRole("navigation", { name: "Board" }).getByRole("link", { name: "Roadmap" }).click()
    await column(page, "open").getByText("Dark mode").waitFor()
    await page.getByText("● live").waitFor()

    // Created through the API: on the roadmap without a reload (only the live stream can put it there).
    const exportCsv = await post("Export to CSV")
    await column(page, "open").getByText("Export to CSV").waitFor({ timeout: 10_000 })

    // A vote changes the count; moving to a planned status moves the card.
    await call(owner, "POST", `/feedback/v1/feature-requests/${exportCsv.id}/votes`)
    await card(page, "open", "Export to CSV").getByText("1 vote", { exact: true }).waitFor({ timeout: 10_000 })
    await call(owner, "POST", `/feedback/v1/feature-requests/${dark.id}/status`, { statusId: statusOf("planned") })
    await column(page, "planned").getByText("Dark mode").waitFor({ timeout: 10_000 })
    await page.locator("#status", { hasText: "FR-1 Dark mode moved to Planned" }).waitFor()
    await expect.poll(() => column(page, "open").getByText("Dark mode").count()).toBe(0)

    // Keyboard: → from the open column's card reaches the planned one, and focus survives a live redraw.
    await column(page, "open")
      .getByRole("link", { name: /Export to CSV/ })
      .focus()
    await page.keyboard.press("ArrowRight")
    await expect.poll(() => page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? "")).toContain("Dark mode")
    await call(owner, "POST", `/feedback/v1/feature-requests/${dark.id}/votes`)
    await card(page, "planned", "Dark mode").getByText("1 vote", { exact: true }).waitFor({ timeout: 10_000 })
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent ?? "")).toContain("Dark mode")

    // The server closes the socket (Ben's role changes); his next ticket is held while a request moves.
    await rig.whileReconnectionHeld(page, "**/stream-ticket", () =>
      call(owner, "POST", `/feedback/v1/feature-requests/${exportCsv.id}/status`, { statusId: statusOf("in_progress") })
    )

    await column(page, "in_progress").getByText("Export to CSV").waitFor({ timeout: 10_000 })
    await page.getByText("● live").waitFor()
    // The board's own subscriptions (the app's workspace stream subscribes beside them).
    const subscribes = sentFrames.map((f) => JSON.parse(f)).filter((f) => f.type === "subscribe" && f.scope === "board")
    expect(subscribes.length).toBeGreaterThanOrEqual(2)
    expect(subscribes.every((f) => f.id === board.id)).toBe(true)
    expect(typeof subscribes.at(-1).lastSeq).toBe("number")

    await page.screenshot({ path: path.join(SHOTS, "roadmap.png"), fullPage: true })
    expect(pageErrors()).toEqual([])
  }, 60_000)

  it("shows a public board's roadmap by slug to a visitor without an account", async () => {
    const page = await newPage()
    await page.goto(`${rig.atrium.origin}/portal/${board.slug}/roadmap`)
    await page.getByRole("heading", { name: "Product ideas", level: 1 }).waitFor()
    await column(page, "planned").getByText("Dark mode").waitFor()
    await column(page, "in_progress").getByText("Export to CSV").waitFor()
    await page.getByText("not live").waitFor()

    // Refresh reads again (a visitor has no stream).
    await post("Keyboard shortcuts")
    await page.getByRole("button", { name: "Refresh" }).click()
    await column(page, "open").getByText("Keyboard shortcuts").waitFor()

    await page.goto(`${rig.atrium.origin}/portal/no-such-board`)
    await page.getByRole("alert").waitFor()
    expect(pageErrors()).toEqual([])
  }, 30_000)

  it("follows a public board opened by slug live when the reader is signed in and may see it", async () => {
    const page = await signedIn(owner, `portal/${board.slug}/roadmap?workspace=${workspaceId}`)
    await column(page, "open").getByText("Keyboard shortcuts").waitFor()
    await page.getByText("● live").waitFor()
    await post("Offline mode")
    await column(page, "open").getByText("Offline mode").waitFor({ timeout: 10_000 })
    expect(pageErrors()).toEqual([])
  }, 30_000)
})
