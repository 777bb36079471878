/**
 * Issue 22's journeys through the meetings, Lens, feedback and settings areas
 * in a real browser (Debian's Chromium via playwright-core, BrowserRig), as an
 * owner (Ann), a member (Ben) and a visitor without an account, selecting by
 * role and accessible name:
 *   4. a Lens question streams an answer whose citation opens the transcript
 *      at the cited moment (first: before anyone has a version of their own);
 *   3. two users open one call: each sees their own version, edits their
 *      notes, regenerates, and two action items become tasks in a pm list
 *      that link back to the call;
 *   5. a visitor submits and votes on the public portal, a board admin merges
 *      it into another request, the vote count moves and the live roadmap follows;
 *   6. an admin creates an API key with one scope and sees it once; a REST call
 *      with it is allowed, another refused.
 * Then every route of these areas at 390 and 1,400 px: a screenshot in
 * test-results/web/ and axe-core without serious or critical violations.
 */
import path from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { atWidths, seriousViolations } from "./Audit.ts"
import { BrowserRig, chromiumAvailable, SHOTS, type User } from "./BrowserRig.ts"

const TRIAGE = [
  { speaker: "Ben", startMs: 0, endMs: 5200, text: "Three new bugs this week. The stream drops when a laptop sleeps and does not resume." },
  {
    speaker: "Ann",
    startMs: 5200,
    endMs: 10600,
    text: "Resuming with the last sequence number should cover it; that's the stream task in the sprint."
  },
  {
    speaker: "Ben",
    startMs: 10600,
    endMs: 16000,
    text: "Second one: cache headers on static assets are missing, so every reload downloads the app."
  },
  { speaker: "Ann", startMs: 16000, endMs: 18600, text: "That's small. I'll fix the cache headers today." },
  { speaker: "Ben", startMs: 18600, endMs: 23000, text: "Last: empty lists show nothing at all. We need an empty state with a hint." },
  { speaker: "Ann", startMs: 23000, endMs: 28000, text: "Ben, can you design the empty states for lists and spaces by next week?" }
]

describe.skipIf(!chromiumAvailable("web area journeys"))("meetings, Lens, feedback and settings in Chromium", () => {
  let rig: BrowserRig
  let owner: User
  let member: User
  let workspaceId: string
  let callId: number
  let listId: string
  let board: { id: string; slug: string }
  const call = (user: User, method: string, url: string, body?: unknown) => rig.call(user, method, url, body)
  const signedIn = (user: User, route: string, width = 1400): Promise<Page> => rig.signedIn(user, route, width)
  const errors = () => [...rig.consoleErrors, ...rig.pageErrors]
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true })

  beforeAll(async () => {
    rig = await BrowserRig.start("Area journeys")
    ;({ owner, member, workspaceId } = rig)
    const recording = await call(owner, "POST", "/hub/v1/recordings", {
      workspaceId,
      name: "Weekly bug triage",
      transcript: { format: "segments", segments: TRIAGE },
      attendeeEmails: [owner.email, member.email]
    })
    callId = Number(recording.callId)
    // Processing is asynchronous; the journeys start from a ready call.
    for (let tries = 0; (await call(owner, "GET", `/hub/v1/recordings/${recording.id}/progress`)).status !== "ready"; tries++) {
      if (tries > 150) throw new Error("the recording never became ready")
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    const space = await call(owner, "POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { name: "Product" })
    listId = (await call(owner, "POST", `/pm/v1/spaces/${space.id}/lists`, { name: "Follow-ups" })).id
    board = await call(owner, "POST", "/feedback/v1/boards", {
      workspaceId,
      name: "Product ideas",
      slug: `ideas-${workspaceId.slice(0, 8)}`,
      visibility: "public",
      settings: { anonymousVoting: true }
    })
  }, 120_000)

  afterAll(async () => {
    await rig?.close()
  })

  it("journey 4: a Lens question streams an answer whose citation opens the transcript at the cited moment", async () => {
    const page = await signedIn(owner, `w/${workspaceId}/meetings`)
    await page.getByRole("heading", { name: "Meetings", level: 1 }).waitFor()
    await page.getByRole("button", { name: "Lens" }).click()
    const lens = page.getByRole("complementary", { name: "Lens" })
    await lens.getByLabel("Ask Lens").fill("What did Ann promise about the cache headers?")
    const streamed = page.waitForResponse((response) => response.url().endsWith("/hub/v1/lens/chat/stream"))
    await lens.getByRole("button", { name: "Ask", exact: true }).click()
    expect((await streamed).headers()["content-type"]).toContain("text/event-stream")
    await lens.getByText("I'll fix the cache headers today.").first().waitFor()
    await expect
      .poll(() => lens.getByRole("region", { name: "Follow-up questions" }).getByRole("button").count(), { timeout: 15_000 })
      .toBeGreaterThan(0)
    await shot(page, "lens-answer-1400")

    // The transcript citation (the answer may also cite Ann's own notes of the call).
    await lens
      .getByRole("link", { name: /^Source \d+: Weekly bug triage at \d+:\d\d$/ })
      .first()
      .click()
    await page.waitForURL(new RegExp(`/meetings/${callId}\\?t=\\d+`))
    await page.getByRole("status").filter({ hasText: "Showing the moment at" }).waitFor()
    const moment = page.locator('[aria-current="true"]')
    await expect
      .poll(() => moment.allInnerTexts(), { timeout: 15_000 })
      .toContainEqual(expect.stringContaining("I'll fix the cache headers today."))
    // The cited moment has the focus, so a keyboard user starts there.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.getAttribute("aria-current"))).toBe("true")
    expect(errors()).toEqual([])
  })

  it("journey 3: two users see their own version of one call, edit notes, regenerate, and send two action items to a list", async () => {
    await call(owner, "PUT", `/hub/v1/calls/${callId}/my-prompt`, { prompt: "Focus on cache headers and static assets." })
    await call(member, "PUT", `/hub/v1/calls/${callId}/my-prompt`, { prompt: "Focus on empty states for lists and spaces." })
    const route = `w/${workspaceId}/meetings/${callId}`
    const [ann, ben] = await Promise.all([signedIn(owner, route), signedIn(member, route)])
    const summaryOf = async (page: Page) => (await page.getByRole("region", { name: "Summary" }).locator("p").first().textContent()) ?? ""
    for (const page of [ann, ben]) await page.getByRole("heading", { name: "Weekly bug triage", level: 1 }).waitFor()
    await ann.getByText("Your own version").waitFor()
    await ben.getByText("Your own version").waitFor()
    const [annSummary, benSummary] = await Promise.all([summaryOf(ann), summaryOf(ben)])
    expect(annSummary).toContain("I'll fix the cache headers today")
    expect(benSummary).toContain("empty state with a hint")
    expect(annSummary).not.toEqual(benSummary)

    // Each edits their own notes: saved, and their enhanced notes carry them; the other's stay theirs.
    const notes = [
      { page: ann, text: "Cache headers ship today." },
      { page: ben, text: "Sketch the empty states first." }
    ]
    for (const { page, text } of notes) {
      await page.getByLabel("My notes").fill(text)
      await page.getByText("Unsaved changes").waitFor()
      await page.getByRole("button", { name: "Save notes" }).click()
      await page.getByRole("region", { name: "Enhanced notes" }).getByText(text).waitFor()
    }
    expect(await ann.getByRole("region", { name: "Enhanced notes" }).textContent()).not.toContain("Sketch the empty states first.")

    // Regenerate: the processing progress runs and the version is read again.
    await ann.getByRole("button", { name: "Regenerate" }).click()
    await ann.getByText("Your notes were regenerated.").waitFor({ timeout: 30_000 })
    await ann.getByRole("region", { name: "Enhanced notes" }).getByText("Cache headers ship today.").waitFor()

    // Two action items to the pm list: the result links to the tasks it made.
    const items = ann.getByRole("region", { name: "Action items" })
    await items.getByRole("checkbox", { name: /I'll fix the cache headers today/ }).check()
    await items.getByRole("checkbox", { name: /design the empty states/ }).check()
    await items.getByLabel("Send to").selectOption({ label: "Follow-ups" })
    await items.getByRole("button", { name: "Send 2 selected" }).click()
    await items.getByText("Sent 2 action items:").waitFor()
    const links = items.getByRole("status").getByRole("link", { name: "Open task" })
    await expect.poll(() => links.count(), { timeout: 15_000 }).toBe(2)
    const hrefs = await links.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute("href") ?? ""))

    const tasks = (await call(owner, "GET", `/pm/v1/lists/${listId}/tasks`)).items as Array<{
      id: string
      name: string
      description: string
    }>
    expect(tasks.map((task) => task.name).sort()).toEqual([
      "Ben, can you design the empty states for lists and spaces by next week?",
      "I'll fix the cache headers today."
    ])
    for (const task of tasks) {
      expect(task.description).toContain('Action item from the call "Weekly bug triage"')
      expect(task.description).toContain(`${rig.atrium.origin}/w/${workspaceId}/meetings/${callId}`)
      expect(hrefs).toContain(`/w/${workspaceId}/work/tasks/${task.id}`)
    }
    // Sent items say so on the call from now on, with their link.
    await ann.reload()
    await expect
      .poll(() => ann.getByRole("region", { name: "Action items" }).getByRole("link", { name: "Open task" }).count(), { timeout: 15_000 })
      .toBe(2)
    await shot(ann, "meetings-call-1400")
    expect(errors()).toEqual([])
  })

  it("journey 5: a visitor submits and votes on the public portal; a team member merges it; the votes and the live roadmap follow", async () => {
    const dark = await call(owner, "POST", `/feedback/v1/boards/${board.id}/feature-requests`, { title: "Dark mode" })
    await call(owner, "POST", `/feedback/v1/feature-requests/${dark.id}/votes`)

    const visitor = await rig.newPage(1400)
    await visitor.goto(`${rig.atrium.origin}/portal/${board.slug}?workspace=${workspaceId}`)
    await visitor.getByRole("heading", { name: "Product ideas", level: 1 }).waitFor()
    await visitor.getByLabel("Title").fill("Night theme")
    await visitor.getByRole("button", { name: "Submit" }).click()
    await visitor.getByText("Thanks! Posted as FR-2.").waitFor()
    const vote = visitor.getByRole("button", { name: /FR-2, / })
    await vote.waitFor()
    await vote.click()
    await visitor.getByRole("button", { name: "Remove vote from FR-2, 1 vote" }).waitFor()
    // Unvote and vote again: the count follows.
    await visitor.getByRole("button", { name: "Remove vote from FR-2, 1 vote" }).click()
    await visitor.getByRole("button", { name: "Vote for FR-2, 0 votes" }).click()
    await visitor.getByRole("button", { name: "Remove vote from FR-2, 1 vote" }).waitFor()
    await shot(visitor, "feedback-portal-1400")

    // The team's roadmap is live: the visitor's request is there with its vote.
    const roadmap = await signedIn(owner, `w/${workspaceId}/feedback/${board.id}/roadmap`)
    await roadmap.getByRole("status").filter({ hasText: "● live" }).waitFor()
    const open = roadmap.getByRole("list", { name: "Open" })
    await open.getByRole("link", { name: /FR-2 Night theme/ }).waitFor()
    await open.getByRole("listitem").filter({ hasText: "FR-2 Night theme" }).getByText("1 vote", { exact: true }).waitFor()

    // A member is not a board admin: no merging for them.
    const ben = await signedIn(member, `w/${workspaceId}/feedback/${board.id}`)
    await ben.getByRole("link", { name: /FR-2 Night theme/ }).click()
    await ben.getByRole("heading", { name: /Night theme/ }).waitFor()
    expect(await ben.getByRole("button", { name: "Merge duplicate" }).count()).toBe(0)

    // The owner, in another page, merges the duplicate into Dark mode.
    const triage = await signedIn(owner, `w/${workspaceId}/feedback/${board.id}`)
    await triage.getByRole("link", { name: /FR-2 Night theme/ }).click()
    await triage.getByLabel("Merge into").selectOption({ label: "FR-1 Dark mode" })
    await triage.getByRole("button", { name: "Merge duplicate" }).click()
    await triage.getByText("Merged into").first().waitFor()

    // Without a reload: the duplicate leaves the roadmap and its vote moves to Dark mode.
    await expect.poll(() => open.getByRole("link", { name: /FR-2 Night theme/ }).count(), { timeout: 15_000 }).toBe(0)
    await open.getByRole("listitem").filter({ hasText: "FR-1 Dark mode" }).getByText("2 votes", { exact: true }).waitFor()
    // A visitor has no stream ("not live"); Refresh reads the new count, and the duplicate is gone.
    await visitor.getByText("not live").waitFor()
    await visitor.getByRole("button", { name: "Refresh" }).click()
    await visitor.getByRole("button", { name: /FR-1, 2 votes$/ }).waitFor()
    expect(await visitor.getByRole("link", { name: /FR-2 Night theme/ }).count()).toBe(0)
    await shot(roadmap, "feedback-roadmap-1400")
    expect(errors()).toEqual([])
  })

  it("journey 6: an admin creates an API key with one scope and sees it once; it may read settings and not change them", async () => {
    const page = await signedIn(owner, `w/${workspaceId}/settings/api-keys`)
    await page.getByLabel("Key name").fill("Settings reader")
    await page.getByRole("checkbox", { name: /^workspace-settings:read/ }).check()
    await page.getByRole("button", { name: "Create key" }).click()
    const secret = page.getByRole("textbox", { name: "New API key" })
    await secret.waitFor()
    const key = await secret.inputValue()
    expect(key).toMatch(/^atr_/)
    await page.getByRole("list", { name: "API keys" }).getByText("Settings reader").waitFor()
    await page.getByRole("button", { name: "Done" }).click()
    expect(await page.getByRole("textbox", { name: "New API key" }).count()).toBe(0)
    await page.reload()
    await page.getByRole("list", { name: "API keys" }).getByText("Settings reader").waitFor()
    expect(await page.content()).not.toContain(key)

    const read = await rig.atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/settings`, { apiKey: key })
    expect(read.status).toBe(200)
    const write = await rig.atrium.request("PATCH", `/hub/v1/workspaces/${workspaceId}/settings`, {
      apiKey: key,
      body: { customPrompt: "Be brief." }
    })
    expect(write.status).toBe(403)

    // A member sees their own keys only, and no admin controls elsewhere.
    const ben = await signedIn(member, `w/${workspaceId}/settings/api-keys`)
    await ben.getByText("You see the keys you created.").waitFor()
    expect(await ben.getByText("Settings reader").count()).toBe(0)
    await ben.goto(`${rig.atrium.origin}/w/${workspaceId}/settings/members`)
    await ben.getByRole("table", { name: "Workspace members" }).waitFor()
    expect(await ben.getByRole("button", { name: "Invite" }).count()).toBe(0)
    expect(await ben.getByRole("combobox", { name: /^Role of / }).count()).toBe(0)
    await ben.goto(`${rig.atrium.origin}/w/${workspaceId}/settings/webhooks`)
    await ben.getByText("Only workspace admins manage webhooks.").waitFor()
    expect(errors()).toEqual([])
  })

  it("shows every route of these areas at 390 and 1,400 px with no serious or critical axe-core violation", async () => {
    const workspaceRoutes = [
      "meetings",
      `meetings/${callId}`,
      `meetings/${callId}?t=16000`,
      "meetings/calendar",
      "meetings/webhooks",
      "feedback",
      `feedback/${board.id}`,
      `feedback/${board.id}/roadmap`,
      `feedback/${board.id}/bugs`,
      `feedback/${board.id}/changelog`,
      `feedback/${board.id}/moderation`,
      "settings",
      "settings/notifications",
      "settings/members",
      "settings/api-keys",
      "settings/webhooks",
      "settings/integrations",
      "settings/workspace",
      "settings/billing"
    ]
    const portalRoutes = ["", "/roadmap", "/changelog", "/requests/FR-1"]
    const found: Array<string> = []
    const widths = [390, 1400]
    const page = await signedIn(owner, `w/${workspaceId}/meetings`, 390)
    for (const route of workspaceRoutes) {
      await page.goto(`${rig.atrium.origin}/w/${workspaceId}/${route}`)
      await page.getByRole("heading", { level: 1 }).first().waitFor()
      await page.waitForLoadState("networkidle")
      await atWidths(page, widths, async (width) => {
        await shot(
          page,
          `${route
            .replace(board.id, "board")
            .replace(/[^a-z0-9]+/gi, "-")
            .replace(/-$/, "")}-${width}`
        )
        found.push(...(await seriousViolations(page)).map((v) => `${route} @${width}: ${v.id} ${v.targets.join(", ")}`))
      })
    }
    const visitor = await rig.newPage(390)
    for (const route of portalRoutes) {
      await visitor.goto(`${rig.atrium.origin}/portal/${board.slug}${route}?workspace=${workspaceId}`)
      await visitor.getByRole("heading", { level: 1 }).first().waitFor()
      await visitor.waitForLoadState("networkidle")
      await atWidths(visitor, widths, async (width) => {
        await shot(visitor, `portal${route.replace(/[^a-z0-9]+/gi, "-")}-${width}`)
        found.push(...(await seriousViolations(visitor)).map((v) => `portal${route} @${width}: ${v.id} ${v.targets.join(", ")}`))
      })
    }
    expect(found).toEqual([])
    expect(errors()).toEqual([])
  }, 240_000)
})
