/**
 * Issue 22 and 24 in a real browser (Debian's Chromium via playwright-core,
 * BrowserRig), selecting by role and accessible name:
 *   - a visitor without an account comments on a public board's request from
 *     the portal; the team sees the comment marked as a visitor's;
 *   - a user chooses how notifications reach them by e-mail (per kind, the
 *     digests' time zone, meeting e-mails) and an e-mail's Stop link opens a
 *     page that stops them without a session;
 *   - a call whose customer asked for things shows the asks on its page;
 *     confirming one turns it into a request, rejecting the other writes nothing;
 *   - a board's admin declares how linked work moves requests, and the team
 *     drafts a milestone's changelog entry from its work, edits and publishes it.
 * Each page at 390 and 1,400 px: a screenshot in test-results/web/ and
 * axe-core without serious or critical violations.
 */
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { unsubscribeToken } from "../../actors/notifications/Unsubscribe.ts"
import { screenshot, seriousViolations } from "./Audit.ts"
import { BrowserRig, chromiumAvailable, type User } from "./BrowserRig.ts"

const CUSTOMER = "carol@customer.example"

const SEGMENTS = [
  { speaker: "Ann", startMs: 0, endMs: 4000, text: "Thanks for joining, Carol. How does your team use the app?" },
  { speaker: "Carol", startMs: 4100, endMs: 9000, text: "Could you add a dark mode to the dashboard? My team works at night." },
  { speaker: "Carol", startMs: 9100, endMs: 14000, text: "Also, it would be great if we could export invoices to CSV." },
  { speaker: "Ann", startMs: 14100, endMs: 18000, text: "I'll send the notes by Friday." }
]

describe.skipIf(!chromiumAvailable("web customer loop tests"))(
  "portal comments, notification preferences and customer asks in Chromium",
  () => {
    let rig: BrowserRig
    let owner: User
    let workspaceId: string
    let board: { id: string; slug: string }
    let darkMode: { id: string; shortId: string }
    let callId: number
    const call = (user: User, method: string, url: string, body?: unknown) => rig.call(user, method, url, body)
    const errors = () => [...rig.consoleErrors, ...rig.pageErrors]

    /** The page as it is now at both widths: a screenshot each and axe-core's serious or critical findings. */
    const audit = async (page: Page, name: string, ready: (page: Page) => Promise<unknown>) => {
      const found: Array<string> = []
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: 860 })
        await ready(page)
        await screenshot(page, name)
        found.push(...(await seriousViolations(page)).map((v) => `${name} @${width}: ${v.id} ${v.targets.join(", ")}`))
      }
      expect(found).toEqual([])
    }

    beforeAll(async () => {
      rig = await BrowserRig.start("Customer loop")
      ;({ owner, workspaceId } = rig)
      board = await call(owner, "POST", "/feedback/v1/boards", {
        workspaceId,
        name: "Product ideas",
        slug: `ideas-${workspaceId.slice(0, 8)}`,
        visibility: "public"
      })
      darkMode = await call(owner, "POST", `/feedback/v1/boards/${board.id}/feature-requests`, { title: "Dark mode for the dashboard" })
      const recording = await call(owner, "POST", "/hub/v1/recordings", {
        workspaceId,
        name: "Carol onboarding",
        transcript: { format: "segments", segments: SEGMENTS },
        attendeeEmails: [rig.member.email, CUSTOMER]
      })
      callId = Number(recording.callId)
      for (let tries = 0; (await call(owner, "GET", `/hub/v1/recordings/${recording.id}/progress`)).status !== "ready"; tries++) {
        if (tries > 150) throw new Error("the recording never became ready")
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }, 120_000)

    afterAll(async () => {
      await rig?.close()
    })

    it("a visitor comments on the portal under a name; the team sees it marked as a visitor's", async () => {
      const visitor = await rig.newPage(1400)
      await visitor.goto(`${rig.atrium.origin}/portal/${board.slug}/requests/${darkMode.shortId}?workspace=${workspaceId}`)
      await visitor.getByRole("heading", { name: /Dark mode for the dashboard/ }).waitFor()
      const form = visitor.getByRole("form", { name: "Add a comment" })
      await form.getByLabel("Add a comment").fill("We work nights too; please!")
      await form.getByLabel("Your name").fill("Dana")
      await form.getByLabel(/^E-mail to hear back/).fill("dana@example.com")
      await form.getByRole("button", { name: "Comment" }).click()
      const comments = visitor.getByRole("list", { name: "Comments" })
      await comments.getByText("We work nights too; please!").waitFor()
      await comments.getByText(/^Dana · /).waitFor()
      expect(await form.getByLabel("Add a comment").inputValue()).toBe("")
      await audit(visitor, "portal-comment", (page) => page.getByRole("form", { name: "Add a comment" }).waitFor())

      const thread = await call(owner, "GET", `/feedback/v1/feature-requests/${darkMode.id}/comments`)
      expect(thread.items).toEqual([
        expect.objectContaining({ author: null, visitor: { name: "Dana", email: "dana@example.com" }, body: "We work nights too; please!" })
      ])
      const team = await rig.signedIn(owner, `w/${workspaceId}/feedback/${board.id}/requests/${darkMode.id}`, 1400)
      await team
        .getByRole("list", { name: "Comments" })
        .getByText(/^Dana · .* · visitor \(dana@example\.com\)$/)
        .waitFor()
      expect(errors()).toEqual([])
    }, 90_000)

    it("a user chooses e-mail per kind, the digests' time zone and meeting e-mails; an e-mail's Stop link works without a session", async () => {
      const page = await rig.signedIn(owner, `w/${workspaceId}/settings`, 1400)
      const tabs = page.getByRole("navigation", { name: "Settings" })
      await tabs.getByRole("link", { name: "Notifications" }).click()
      await page.waitForURL(new RegExp(`/w/${workspaceId}/settings/notifications$`))
      // The address changes before React renders the new route: wait for the tab to show itself current.
      await tabs.locator('a[aria-current="page"]', { hasText: "Notifications" }).waitFor()
      expect(await tabs.getByRole("link", { name: "Profile" }).getAttribute("aria-current")).toBeNull()
      const comments = page.getByLabel("Comments on what you watch or follow")
      await comments.waitFor()
      expect(await comments.inputValue()).toBe("daily")
      await comments.selectOption({ label: "Off" })
      await page.locator("#status", { hasText: "Comments on what you watch or follow: Off" }).waitFor()
      const delivery = await call(owner, "GET", "/hub/v1/users/me/notification-delivery")
      expect(delivery.kinds).toContainEqual({ kind: "comment", mode: "off", default: "daily", areas: ["pm", "wiki", "feedback"] })

      await page.getByLabel("Time zone for digests").selectOption("Europe/Berlin")
      await page.getByRole("button", { name: "Save time zone" }).click()
      await page.getByText("Now: Europe/Berlin").waitFor()
      expect((await call(owner, "GET", "/pm/v1/users/me/settings")).timezone).toBe("Europe/Berlin")

      const weekly = page.getByRole("checkbox", { name: "A weekly digest of my meetings" })
      const before = await weekly.isChecked()
      await weekly.click()
      await expect.poll(() => weekly.isChecked()).toBe(!before)
      expect((await call(owner, "GET", "/hub/v1/users/me/settings/notifications")).weeklyDigest).toBe(!before)
      await audit(page, "settings-notifications", (p) => p.getByLabel("Mentions of you").waitFor())

      // The Stop link of a mention e-mail, opened in a browser without a session.
      const token = await rig.atrium.run(unsubscribeToken(owner.userId, "mention"))
      const stop = await rig.newPage(1400)
      await stop.goto(`${rig.atrium.origin}/unsubscribe?token=${token}`)
      await stop.getByText("This link stops e-mails for “Mentions of you” (now: at once).").waitFor()
      // Opening the page changed nothing.
      expect((await call(owner, "GET", "/hub/v1/users/me/notification-delivery")).kinds).toContainEqual(
        expect.objectContaining({ kind: "mention", mode: "instant" })
      )
      await audit(stop, "unsubscribe", (p) => p.getByRole("button", { name: "Unsubscribe" }).waitFor())
      await stop.getByRole("button", { name: "Unsubscribe" }).click()
      await stop.getByRole("status").filter({ hasText: "Done: you will get no more e-mails for “Mentions of you”." }).waitFor()
      expect((await call(owner, "GET", "/hub/v1/users/me/notification-delivery")).kinds).toContainEqual(
        expect.objectContaining({ kind: "mention", mode: "off" })
      )
      expect(errors()).toEqual([])
      // A forged link: the page says so (the browser logs the 400 it got, which is the point here).
      await stop.goto(`${rig.atrium.origin}/unsubscribe?token=${token.slice(0, -3)}xyz`)
      await stop.getByRole("alert").filter({ hasText: "Not an unsubscribe link of this server" }).waitFor()
      const logged = rig.consoleErrors.splice(0)
      expect(logged.every((line) => line.includes("status of 400"))).toBe(true)
    }, 90_000)

    it("a call's page shows its customer asks; confirming one creates the request, rejecting the other writes nothing", async () => {
      // Processing stores the asks just after the call is ready.
      const asksOfCall = async () =>
        ((await call(owner, "GET", `/hub/v1/workspaces/${workspaceId}/lens/proposals`)).items as Array<any>).filter(
          (proposal) => proposal.call?.callId === callId
        )
      await expect.poll(async () => (await asksOfCall()).length, { timeout: 20_000 }).toBe(2)
      const requestsBefore = (await call(owner, "GET", `/feedback/v1/boards/${board.id}/feature-requests`)).total

      const page = await rig.signedIn(owner, `w/${workspaceId}/meetings/${callId}`, 1400)
      const asks = page.getByRole("region", { name: "Customer asks" })
      await asks.locator("q", { hasText: "Could you add a dark mode to the dashboard?" }).waitFor()
      await asks.locator("q", { hasText: "Also, it would be great if we could export invoices to CSV." }).waitFor()
      await audit(page, "call-customer-asks", (p) => p.getByRole("region", { name: "Customer asks" }).waitFor())
      await page.setViewportSize({ width: 1400, height: 860 })

      await asks.getByRole("button", { name: /^Confirm: Create request/ }).click()
      await asks.getByRole("link", { name: "open request" }).waitFor()
      await asks.getByRole("button", { name: /^Reject: Add a vote from/ }).click()
      await asks.getByText("Rejected").waitFor()

      const decided = await asksOfCall()
      expect(decided.map((proposal) => proposal.status).sort()).toEqual(["applied", "rejected"])
      const requests = await call(owner, "GET", `/feedback/v1/boards/${board.id}/feature-requests`)
      expect(requests.total).toBe(requestsBefore + 1)
      const created = requests.items.find((request: any) => request.title.includes("export invoices to CSV"))
      expect(created).toBeDefined()
      expect((await call(owner, "GET", `/feedback/v1/feature-requests/${darkMode.id}`)).voteCount).toBe(0)

      // The link opens the request the ask became.
      await asks.getByRole("link", { name: "open request" }).click()
      await page.getByRole("heading", { name: /export invoices to CSV/ }).waitFor()
      expect(page.url()).toContain(`/feedback/${board.id}/requests/${created.id}`)
      expect(errors()).toEqual([])
    }, 90_000)

    it("an admin declares how linked work moves requests; the team drafts a milestone's entry from its work, edits and publishes it", async () => {
      const statuses: Array<{ id: string; name: string; type: string }> = (
        await call(owner, "GET", `/feedback/v1/boards/${board.id}/statuses`)
      ).items
      const inProgress = statuses.find((status) => status.type === "in_progress")!
      const shipped = statuses.find((status) => status.type === "shipped")!
      const offline = await call(owner, "POST", `/feedback/v1/boards/${board.id}/feature-requests`, { title: "Work offline" })
      const space = await call(owner, "POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { name: "Product" })
      const list = await call(owner, "POST", `/pm/v1/spaces/${space.id}/lists`, { name: "Build" })
      const task = await call(owner, "POST", `/pm/v1/lists/${list.id}/tasks`, { name: "Sync engine" })
      await call(owner, "PUT", `/feedback/v1/feature-requests/${offline.id}/tasks/${task.id}`)
      await call(owner, "POST", `/feedback/v1/feature-requests/${offline.id}/status`, { statusId: shipped.id })

      // The board's admin: how linked work moves requests, on the roadmap tab.
      const page = await rig.signedIn(owner, `w/${workspaceId}/feedback/${board.id}/roadmap`, 1400)
      await page.getByText("How linked work moves requests").click()
      await page.getByLabel("When the first linked task starts, move the request to").selectOption({ label: inProgress.name })
      await page.getByLabel("When all linked tasks are done, move the request to").selectOption({ label: shipped.name })
      await page.getByRole("button", { name: "Save", exact: true }).click()
      await expect
        .poll(async () => await call(owner, "GET", `/feedback/v1/boards/${board.id}/work-progress`), { timeout: 10_000 })
        .toMatchObject({ startedStatusId: inProgress.id, doneStatusId: shipped.id })
      await audit(page, "feedback-work-progress", (p) => p.getByLabel("When all linked tasks are done, move the request to").waitFor())

      // A milestone's entry drafted from its work (adding the board's completed requests), edited, then published.
      await page.setViewportSize({ width: 1400, height: 860 })
      await page.getByRole("navigation", { name: "Board" }).getByRole("link", { name: "Changelog" }).click()
      await page.waitForURL(/\/changelog$/)
      await page.getByLabel("New milestone").fill("Summer release")
      await page.getByRole("button", { name: "Add milestone" }).click()
      await page.getByRole("button", { name: "Draft changelog entry from Summer release" }).waitFor()
      await page.getByLabel("First add the board's completed requests no milestone holds yet").check()
      await page.getByRole("button", { name: "Draft changelog entry from Summer release" }).click()
      await page.getByRole("button", { name: "Edit Summer release" }).click()
      const editor = page.getByRole("form", { name: "Edit draft Summer release" })
      const text = editor.getByLabel("Text (Markdown)")
      expect(await text.inputValue()).toContain("**Sync engine**")
      await text.fill(`${await text.inputValue()}\nThanks to everyone who asked.`)
      await editor.getByRole("button", { name: "Save draft" }).click()
      await page.getByText("Thanks to everyone who asked.").waitFor()
      await audit(page, "feedback-changelog-draft", (p) => p.getByRole("button", { name: "Publish Summer release" }).waitFor())
      await page.setViewportSize({ width: 1400, height: 860 })
      await page.getByRole("button", { name: "Publish Summer release" }).click()
      await expect
        .poll(
          async () =>
            (await call(owner, "GET", `/feedback/v1/boards/${board.id}/changelog`)).items.find(
              (entry: { title: string }) => entry.title === "Summer release"
            ),
          { timeout: 10_000 }
        )
        .toMatchObject({ state: "published", featureRequestIds: [offline.id] })
      // A new milestone has no article yet: its GET answers 404, which the page shows as "No article yet".
      expect(errors().filter((error) => !error.includes("status of 404"))).toEqual([])
    }, 90_000)
  }
)
