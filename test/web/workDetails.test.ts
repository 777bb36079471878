/**
 * The Work area's finer pieces in Chromium (BrowserRig), as a member (Ben)
 * and a workspace admin (Ann), selecting by role and accessible name and
 * checking every result through the API:
 *   - a list's custom field definitions: created (number, dropdown with
 *     options), renamed, reordered and given an option by a member, who is
 *     offered no delete; deleted by the admin; their values set in the drawer;
 *   - the task drawer's relationships (found by search, shown with status,
 *     removed) and attachments (file input and drag and drop, downloaded,
 *     deleted by their uploader only);
 *   - saved views of a list: the current filters saved under a name, picked,
 *     renamed, opened from a link by another member (who may not delete it),
 *     deleted by its creator; the URL names the view;
 *   - a dashboard: relationship and vote widgets, widgets moved, resized (by
 *     keyboard) and removed, the layout read back from the API;
 *   - a member made a viewer: a stale page's upload is refused with a clear
 *     403 message, and a fresh one offers none of the controls;
 * then the list, drawer, dashboard and sprints pages at 390 and 1,400 px: a
 * screenshot each, no serious or critical axe-core violation, nothing wider
 * than the screen, and the sprints page's two layout fixes measured.
 */
import { readFile } from "node:fs/promises"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { atWidths, screenshot, seriousViolations } from "./Audit.ts"
import { BrowserRig, chromiumAvailable, type User } from "./BrowserRig.ts"

interface Field {
  readonly id: string
  readonly name: string
  readonly type: string
  readonly inherited: boolean
  readonly config: { readonly options?: ReadonlyArray<{ readonly id: string; readonly name: string }> }
}

describe.skipIf(!chromiumAvailable("web work details"))("the Work area's details in Chromium", () => {
  let rig: BrowserRig
  let owner: User
  let member: User
  let workspaceId: string
  let spaceId: string
  let listId: string
  const tasks = new Map<string, { id: string; shortId: string }>()
  const names = ["Design the onboarding", "Build the API", "Write the docs"] as const
  const call = (user: User, method: string, url: string, body?: unknown) => rig.call(user, method, url, body)
  const errors = () => [...rig.consoleErrors, ...rig.pageErrors].filter((e) => !/WebSocket|ERR_|status of 4\d\d/.test(e))
  const listRoute = () => `w/${workspaceId}/work/lists/${listId}`
  const id = (name: string) => tasks.get(name)!.id
  const drawer = (page: Page) => page.getByRole("dialog", { name: "Task" })
  const savedView = (page: Page) => page.getByRole("combobox", { name: /^Saved view/ })
  const fields = async (): Promise<Array<Field>> => (await call(owner, "GET", `/pm/v1/lists/${listId}/custom-fields`)).items
  const upload = async (user: User, taskId: string, filename: string, type: string, body: string) => {
    const response = await fetch(`${rig.atrium.origin}/pm/v1/tasks/${taskId}/attachments?filename=${filename}`, {
      method: "POST",
      headers: { authorization: `Bearer ${user.token}`, "content-type": type },
      body
    })
    expect(response.status).toBe(201)
  }

  beforeAll(async () => {
    rig = await BrowserRig.start("Work details")
    ;({ owner, member, workspaceId } = rig)
    spaceId = (await call(owner, "POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { name: "Product" })).id
    listId = (await call(owner, "POST", `/pm/v1/spaces/${spaceId}/lists`, { name: "Roadmap" })).id
    for (const name of names) {
      const task = await call(owner, "POST", `/pm/v1/lists/${listId}/tasks`, { name })
      tasks.set(name, { id: task.id, shortId: task.shortId })
    }
    await call(owner, "PATCH", `/pm/v1/tasks/${id(names[0])}`, { tags: ["ux"] })
    await call(owner, "PATCH", `/pm/v1/tasks/${id(names[1])}`, { tags: ["api"] })
  }, 120_000)

  afterAll(async () => {
    await rig?.close()
  })

  it("custom field definitions: a member creates, renames, reorders and extends them; the admin deletes one; values set in the drawer", async () => {
    const ben = await rig.signedIn(member, listRoute(), 1400)
    await ben.getByRole("heading", { name: "Roadmap", level: 1 }).waitFor()
    await ben.getByText("Custom fields", { exact: true }).click()
    await ben.getByText("No custom fields yet.").waitFor()
    const create = ben.getByRole("form", { name: "New custom field" })
    await create.getByLabel("Field name").fill("Effort")
    await create.getByLabel("Type").selectOption({ label: "Number" })
    await create.getByRole("button", { name: "Create field" }).click()
    const own = ben.getByRole("list", { name: "Custom fields of this list" })
    await own.getByRole("listitem", { name: "Effort" }).waitFor()
    await create.getByLabel("Field name").fill("Stage")
    await create.getByLabel("Type").selectOption({ label: "Dropdown" })
    await create.getByLabel("Options (separated by commas)").fill("Idea, Doing")
    await create.getByRole("button", { name: "Create field" }).click()
    await own.getByRole("listitem", { name: "Stage" }).waitFor()
    expect((await fields()).map((f) => [f.name, f.type, (f.config.options ?? []).map((o) => o.name)])).toEqual([
      ["Effort", "number", []],
      ["Stage", "dropdown", ["Idea", "Doing"]]
    ])

    // Renamed, reordered and given an option.
    await own.getByRole("button", { name: "Rename Effort" }).click()
    await ben.getByRole("form", { name: "Rename Effort" }).getByLabel("Field name").fill("Estimate")
    await ben.getByRole("button", { name: "Save name" }).click()
    await own.getByRole("listitem", { name: "Estimate" }).waitFor()
    await own.getByRole("button", { name: "Move up Stage" }).click()
    await expect.poll(async () => (await fields()).map((f) => f.name), { timeout: 10_000 }).toEqual(["Stage", "Estimate"])
    await own.getByLabel("New option of Stage").fill("Shipped")
    await own.getByLabel("New option of Stage").press("Enter")
    await own.getByRole("list", { name: "Options of Stage" }).getByText("Shipped").waitFor()
    const stage = (await fields()).find((f) => f.name === "Stage")!
    expect(stage.config.options?.map((o) => o.name)).toEqual(["Idea", "Doing", "Shipped"])
    // Deleting takes an admin: a member is offered no delete.
    expect(await own.getByRole("button", { name: /^Delete/ }).count()).toBe(0)
    await screenshot(ben, "list-custom-fields")

    // The values, in the task drawer.
    await ben.goto(`${rig.atrium.origin}/${listRoute()}?task=${id(names[0])}`)
    const values = drawer(ben).getByRole("region", { name: "Custom fields" })
    await values.getByLabel("Stage").selectOption({ label: "Doing" })
    await values.getByLabel("Estimate").fill("3")
    await values.getByLabel("Estimate").press("Tab")
    const doing = stage.config.options!.find((o) => o.name === "Doing")!.id
    await expect
      .poll(
        async () =>
          Object.fromEntries(
            ((await call(owner, "GET", `/pm/v1/tasks/${id(names[0])}/custom-fields`)).items as Array<{ name: string; value: unknown }>).map(
              (f) => [f.name, f.value]
            )
          ),
        { timeout: 10_000 }
      )
      .toEqual({ Stage: expect.objectContaining({ id: doing }), Estimate: 3 })

    // The admin deletes one (asked twice).
    const ann = await rig.signedIn(owner, listRoute(), 1400)
    await ann.getByText("Custom fields", { exact: true }).click()
    const hers = ann.getByRole("list", { name: "Custom fields of this list" })
    await hers.getByRole("button", { name: "Delete Estimate" }).click()
    await hers.getByRole("button", { name: "Delete Estimate and all its values" }).click()
    await hers.getByRole("listitem", { name: "Estimate" }).waitFor({ state: "detached" })
    expect((await fields()).map((f) => f.name)).toEqual(["Stage"])
    // Ben's open drawer follows without a reload.
    await values.getByLabel("Estimate").waitFor({ state: "detached", timeout: 10_000 })
    await values.getByLabel("Stage").waitFor()
    expect(errors()).toEqual([])
  }, 180_000)

  it("the drawer's relationships and attachments: found by search, shown with status, uploaded, downloaded and deleted by who may", async () => {
    const ben = await rig.signedIn(member, `${listRoute()}?task=${id(names[0])}`, 1400)
    const task = drawer(ben)
    const relationships = task.getByRole("region", { name: "Relationships" })
    await relationships.getByText("No related tasks.").waitFor()
    // Ann has the other task open: she sees the relationship arrive, read from her task's side.
    const ann = await rig.signedIn(owner, `${listRoute()}?task=${id(names[1])}`, 1400)
    const hers = drawer(ann).getByRole("region", { name: "Relationships" })
    await hers.getByText("No related tasks.").waitFor()

    // Blocked by "Build the API", found by searching its name.
    await relationships.getByLabel("This task").selectOption({ label: "blocked by" })
    await relationships.getByLabel("Find a task to relate").fill("Build")
    await relationships.getByRole("button", { name: `Blocked by ${tasks.get(names[1])!.shortId} ${names[1]}` }).click()
    const blockedBy = relationships.getByRole("list", { name: "Blocked by" })
    await blockedBy.getByRole("link", { name: names[1] }).waitFor()
    await blockedBy.getByText(/· to do/i).waitFor()
    await hers.getByRole("list", { name: "Blocks" }).getByRole("link", { name: names[0] }).waitFor({ timeout: 10_000 })
    // Relates to "Write the docs", then removed again.
    await relationships.getByLabel("This task").selectOption({ label: "relates to" })
    await relationships.getByLabel("Find a task to relate").fill("docs")
    await relationships.getByRole("button", { name: `Relates to ${tasks.get(names[2])!.shortId} ${names[2]}` }).click()
    await relationships.getByRole("list", { name: "Relates to" }).getByRole("link", { name: names[2] }).waitFor()
    const related = async () =>
      ((await call(owner, "GET", `/pm/v1/tasks/${id(names[0])}/relationships`)).items as Array<{ type: string; task: { id: string } }>)
        .map((r) => [r.type, r.task.id])
        .sort()
    expect(await related()).toEqual([
      ["blocked_by", id(names[1])],
      ["relates_to", id(names[2])]
    ])
    await relationships.getByRole("button", { name: `Remove relates to ${names[2]}` }).click()
    await relationships.getByRole("list", { name: "Relates to" }).waitFor({ state: "detached" })
    expect(await related()).toEqual([["blocked_by", id(names[1])]])
    // The other side reads it as "blocks".
    const other = (await call(owner, "GET", `/pm/v1/tasks/${id(names[1])}/relationships`)).items
    expect(other.map((r: { type: string; task: { id: string } }) => [r.type, r.task.id])).toEqual([["blocks", id(names[0])]])

    // Attachments: Ann's file (uploaded through the API), Ben's from the file input and by drag and drop.
    await upload(owner, id(names[0]), "brief.txt", "text/plain", "Ann's brief")
    const files = task.getByRole("region", { name: "Attachments" })
    await files.getByRole("button", { name: "Download brief.txt" }).waitFor({ timeout: 10_000 })
    await files.getByLabel("Attach files").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Ben's notes") })
    await files.getByRole("button", { name: "Download notes.txt" }).waitFor()
    // Built in the page (the tests' own types know no DOM): a drop carrying one file.
    const dropped = await ben.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File(["a,b\\n1,2\\n"], "numbers.csv", { type: "text/csv" })); return t })()`
    )
    await files.dispatchEvent("dragover", { dataTransfer: dropped })
    await files.dispatchEvent("drop", { dataTransfer: dropped })
    await files.getByRole("button", { name: "Download numbers.csv" }).waitFor()
    const attached = async () =>
      ((await call(owner, "GET", `/pm/v1/tasks/${id(names[0])}/attachments`)).items as Array<{ filename: string; size: number }>)
        .map((a) => [a.filename, a.size])
        .sort()
    expect(await attached()).toEqual([
      ["brief.txt", 11],
      ["notes.txt", 11],
      ["numbers.csv", 8]
    ])
    // Downloaded with its bytes.
    const [download] = await Promise.all([ben.waitForEvent("download"), files.getByRole("button", { name: "Download notes.txt" }).click()])
    expect(download.suggestedFilename()).toBe("notes.txt")
    expect(await readFile((await download.path())!, "utf8")).toBe("Ben's notes")
    // Ben deletes his own files only.
    expect(await files.getByRole("button", { name: "Delete brief.txt" }).count()).toBe(0)
    await files.getByRole("button", { name: "Delete numbers.csv" }).click()
    await files.getByRole("button", { name: "Download numbers.csv" }).waitFor({ state: "detached" })
    expect(await attached()).toEqual([
      ["brief.txt", 11],
      ["notes.txt", 11]
    ])
    await screenshot(ben, "task-drawer-details")
    expect(errors()).toEqual([])
  }, 180_000)

  it("saved views: the filters saved under a name, picked, renamed, opened from a link, deleted by their creator", async () => {
    const ann = await rig.signedIn(owner, listRoute(), 1400)
    const filters = ann.getByRole("search", { name: "Filter tasks" })
    await filters.getByLabel("Tag").selectOption("ux")
    await filters.getByText("1 of 3 tasks").waitFor()
    await ann.getByText("Save these filters as a view").click()
    await ann.getByRole("form", { name: "Save as view" }).getByLabel("New view name").fill("UX work")
    await ann.getByRole("button", { name: "Save view" }).click()
    await expect.poll(() => new URL(ann.url()).searchParams.get("saved"), { timeout: 10_000 }).not.toBeNull()
    const views = async () =>
      (await call(owner, "GET", `/pm/v1/workspaces/${workspaceId}/views?scopeType=list&scopeId=${listId}`)).items as Array<{
        id: string
        name: string
        type: string
        filters: unknown
        isPrivate: boolean
      }>
    const [saved] = await views()
    expect(saved).toMatchObject({ name: "UX work", type: "board", filters: { tags: ["ux"] }, isPrivate: false })
    expect(new URL(ann.url()).searchParams.get("saved")).toBe(saved!.id)

    // A filter changed leaves the view; picking it again brings its filters back.
    await filters.getByRole("button", { name: "Clear filters" }).click()
    await filters.getByText("3 of 3 tasks").waitFor()
    expect(await savedView(ann).inputValue()).toBe("")
    await savedView(ann).selectOption({ label: "UX work" })
    await filters.getByText("1 of 3 tasks").waitFor()
    expect(Object.fromEntries(new URL(ann.url()).searchParams)).toMatchObject({ saved: saved!.id, tag: "ux" })

    // Renamed.
    await ann.getByRole("button", { name: "Rename view" }).click()
    await ann.getByRole("form", { name: "Rename UX work" }).getByLabel("View name").fill("UX queue")
    await ann.getByRole("button", { name: "Save name" }).click()
    await ann.getByRole("option", { name: "UX queue" }).waitFor({ state: "attached" })
    expect((await views()).map((v) => v.name)).toEqual(["UX queue"])
    await screenshot(ann, "list-saved-view")

    // Ben opens a link naming only the view: its filters apply; he may rename it but not delete it.
    const ben = await rig.signedIn(member, `${listRoute()}?saved=${saved!.id}`, 390)
    await ben.getByRole("search", { name: "Filter tasks" }).getByText("1 of 3 tasks").waitFor({ timeout: 10_000 })
    expect(await savedView(ben).inputValue()).toBe(saved!.id)
    expect(new URL(ben.url()).searchParams.get("tag")).toBe("ux")
    await ben.getByRole("button", { name: "Rename view" }).waitFor()
    expect(await ben.getByRole("button", { name: "Delete view" }).count()).toBe(0)

    // Ann deletes it: gone from the API and from the URL.
    await ann.getByRole("button", { name: "Delete view" }).click()
    await expect.poll(views, { timeout: 10_000 }).toEqual([])
    await expect.poll(() => new URL(ann.url()).searchParams.get("saved")).toBeNull()
    expect(errors()).toEqual([])
  }, 180_000)

  it("a dashboard: relationship and vote widgets, moved, resized by keyboard and removed, the layout saved", async () => {
    await call(owner, "PUT", `/pm/v1/tasks/${id(names[0])}/vote`, { vote: true })
    await call(member, "PUT", `/pm/v1/tasks/${id(names[0])}/vote`, { vote: true })
    await call(member, "PUT", `/pm/v1/tasks/${id(names[2])}/vote`, { vote: true })
    const dashboard = await call(owner, "POST", `/pm/v1/workspaces/${workspaceId}/dashboards`, {
      name: "Product pulse",
      scopeType: "space",
      scopeId: spaceId,
      widgets: [{ type: "task_count", title: "Tasks by status", config: { groupBy: "status" } }]
    })
    const layout = async () =>
      (
        (await call(owner, "GET", `/pm/v1/dashboards/${dashboard.id}`)).widgets as Array<{ title: string; width: number; height: number }>
      ).map((w) => [w.title, w.width, w.height])
    const ann = await rig.signedIn(owner, `w/${workspaceId}/work/dashboards/${dashboard.id}`, 1400)
    await ann.getByRole("heading", { name: "Product pulse", level: 1 }).waitFor()
    await ann.getByText("Add a widget").click()
    await ann.getByLabel(/^Widget/).selectOption({ label: "Task relationships" })
    await ann.getByRole("button", { name: "Add widget" }).click()
    const graph = ann.getByRole("region", { name: "Task relationships" })
    await graph
      .getByText("1 relationship among 2 tasks: 1 blocking, 0 related, 0 duplicates; 1 task held back.")
      .waitFor({ timeout: 10_000 })
    await graph.getByRole("link", { name: names[1] }).waitFor()
    await ann.getByLabel(/^Widget/).selectOption({ label: "Most voted tasks" })
    await ann.getByRole("button", { name: "Add widget" }).click()
    const votes = ann.getByRole("region", { name: "Most voted tasks" })
    await votes.getByText("3 votes from 2 people.").waitFor({ timeout: 10_000 })
    await votes.getByText(`most: ${names[0]} (2)`, { exact: false }).waitFor()
    expect(await layout()).toEqual([
      ["Tasks by status", 6, 4],
      ["Task relationships", 6, 4],
      ["Most voted tasks", 6, 4]
    ])

    // Moved first, made wider and taller with the keyboard, and the status widget removed.
    await votes.getByRole("button", { name: "Move earlier Most voted tasks" }).click()
    await expect
      .poll(async () => (await layout()).map(([title]) => title), { timeout: 10_000 })
      .toEqual(["Tasks by status", "Most voted tasks", "Task relationships"])
    await votes.getByRole("button", { name: "Move earlier Most voted tasks" }).click()
    await expect
      .poll(async () => (await layout()).map(([title]) => title), { timeout: 10_000 })
      .toEqual(["Most voted tasks", "Tasks by status", "Task relationships"])
    await graph.getByRole("button", { name: "Wider Task relationships" }).focus()
    await ann.keyboard.press("Enter")
    await expect.poll(layout, { timeout: 10_000 }).toContainEqual(["Task relationships", 7, 4])
    // Two presses in a row, while the first is still being saved (its answer held back): each builds on the one before.
    const widgetWrites = "**/pm/v1/dashboards/*/widgets/*"
    await ann.route(widgetWrites, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400))
      await route.continue()
    })
    await graph.getByRole("button", { name: "Wider Task relationships" }).press("Enter")
    await graph.getByRole("button", { name: "Wider Task relationships" }).press("Enter")
    await expect.poll(layout, { timeout: 10_000 }).toContainEqual(["Task relationships", 9, 4])
    await ann.unroute(widgetWrites)
    await graph.getByRole("button", { name: "Taller Task relationships" }).press("Space")
    await expect.poll(layout, { timeout: 10_000 }).toContainEqual(["Task relationships", 9, 5])
    await graph.getByText("Layout of Task relationships: 9/12 wide, 5 tall").waitFor()
    await ann.getByRole("region", { name: "Tasks by status" }).getByRole("button", { name: "Remove Tasks by status" }).click()
    await expect.poll(layout, { timeout: 10_000 }).toEqual([
      ["Most voted tasks", 6, 4],
      ["Task relationships", 9, 5]
    ])
    // The grid shows the saved widths: the relationships widget is the wider one.
    const widthOf = async (name: string) => (await ann.getByRole("region", { name }).boundingBox())!.width
    expect(await widthOf("Task relationships")).toBeGreaterThan(await widthOf("Most voted tasks"))
    await screenshot(ann, "dashboard-layout")
    expect(errors()).toEqual([])
  }, 180_000)

  it("a member made a viewer: a stale page's upload is refused with a clear message; a fresh page offers no controls", async () => {
    const stale = await rig.signedIn(member, `${listRoute()}?task=${id(names[1])}`, 1400)
    const files = drawer(stale).getByRole("region", { name: "Attachments" })
    await files.getByLabel("Attach files").waitFor()
    await call(owner, "PATCH", `/hub/v1/workspaces/${workspaceId}/members/${member.userId}`, { role: "viewer" })
    await files.getByLabel("Attach files").setInputFiles({ name: "late.txt", mimeType: "text/plain", buffer: Buffer.from("too late") })
    await files
      .getByRole("alert")
      .getByText(/^You don't have permission for this/)
      .waitFor({ timeout: 10_000 })
    expect((await call(owner, "GET", `/pm/v1/tasks/${id(names[1])}/attachments`)).items).toEqual([])

    const viewer = await rig.signedIn(member, `${listRoute()}?task=${id(names[0])}`, 1400)
    const task = drawer(viewer)
    await task.getByRole("region", { name: "Relationships" }).getByRole("link", { name: names[1] }).waitFor()
    await task.getByRole("region", { name: "Attachments" }).getByRole("button", { name: "Download notes.txt" }).waitFor()
    expect(await task.getByLabel("Attach files").count()).toBe(0)
    expect(await task.getByLabel("Find a task to relate").count()).toBe(0)
    // (A tag's own remove button is the task editor's, not these sections'.)
    expect(
      await task.getByRole("button", { name: /^Remove (blocks|blocked by|relates to|duplicates|duplicated by) |^Delete / }).count()
    ).toBe(0)
    await task.getByRole("button", { name: "Close" }).click()
    // Closed, then gone from the page (a closed dialog lingers a moment before the URL change unmounts it).
    await expect.poll(() => new URL(viewer.url()).searchParams.has("task")).toBe(false)
    await expect.poll(() => viewer.getByText("Custom fields", { exact: true }).count()).toBe(1)
    await viewer.getByText("Custom fields", { exact: true }).click()
    await viewer.getByRole("list", { name: "Custom fields of this list" }).getByRole("listitem", { name: "Stage" }).waitFor()
    expect(await viewer.getByRole("form", { name: "New custom field" }).count()).toBe(0)
    expect(await viewer.getByRole("button", { name: /^(Rename|Move up|Move down|Delete) Stage/ }).count()).toBe(0)
    expect(await viewer.getByText("Save these filters as a view").count()).toBe(0)
  }, 120_000)

  it("the new screens at 390 and 1,400 px: a screenshot each, no serious or critical axe violation; the sprints page's layout fixed", async () => {
    const dashboards = (await call(owner, "GET", `/pm/v1/workspaces/${workspaceId}/dashboards`)).items as Array<{ id: string }>
    const routes: Array<[string, string, string, "details" | "drawer" | "page"]> = [
      ["list-details", listRoute(), "Roadmap", "details"],
      ["task-drawer", `${listRoute()}?task=${id(names[0])}`, names[0], "drawer"],
      ["dashboard-widgets", `w/${workspaceId}/work/dashboards/${dashboards[0]!.id}`, "Product pulse", "page"],
      ["sprints-page", `w/${workspaceId}/work/spaces/${spaceId}/sprints`, "Sprints · Product", "page"]
    ]
    await call(owner, "POST", `/pm/v1/spaces/${spaceId}/sprint-groups`, { name: "Release train", defaultLengthDays: 14 })
    const found: Array<string> = []
    const page = await rig.signedIn(owner, `w/${workspaceId}`, 390)
    for (const [name, route, heading, kind] of routes) {
      await page.goto(`${rig.atrium.origin}/${route}`)
      await page.getByRole("heading", { name: heading, level: kind === "drawer" ? 2 : 1 }).waitFor()
      if (kind === "details") {
        await page.getByText("Custom fields", { exact: true }).click()
        await page.getByText("Save these filters as a view").click()
      }
      await page.waitForLoadState("networkidle")
      await atWidths(page, [390, 1400], async (width) => {
        await screenshot(page, name)
        // Nothing pushes the page sideways (a phone would scroll it).
        const scrollWidth = Number(await page.evaluate("document.documentElement.scrollWidth"))
        if (scrollWidth > width) found.push(`${name} @${width}: ${scrollWidth} px wide`)
        for (const v of await seriousViolations(page))
          found.push(`${name} @${width}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(", ")}`)
      })
    }
    // The sprints page (last visited): the series filter is sized to its content, and nothing is left under "New series".
    await atWidths(page, [390, 1400], async (width) => {
      const select = (await page.getByLabel("Show sprints of").boundingBox())!
      const main = (await page.getByRole("main").boundingBox())!
      if (width === 1400) expect(select.width).toBeLessThan(main.width / 2)
      const series = (await page.getByRole("region", { name: "Sprint series" }).boundingBox())!
      const summary = (await page.getByText("New series", { exact: true }).boundingBox())!
      expect(series.y + series.height - (summary.y + summary.height)).toBeLessThan(24)
    })
    expect(found).toEqual([])
  }, 300_000)
})
