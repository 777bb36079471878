/**
 * Journey 2 of issue 22 in Chromium (the rig of browser.test.ts), selecting by
 * role and accessible name: Ann plans a sprint from the Work area, moves
 * backlog tasks into it and starts it; Ben (on a phone-sized screen) finishes
 * one from the sprint page and another is finished through the API; Ann's
 * burndown shows both without a reload; she completes the sprint and the
 * space's velocity shows it. Ben, made a viewer, no longer sees the planning
 * controls. A dashboard over the space: widgets added (tasks by status, the
 * sprint's burndown, velocity) and following a task change live. A task's
 * custom fields set from its page, read-only for a viewer. A sprint series
 * created, a sprint planned in it, the list narrowed to it, the series changed
 * and deleted (its sprint stays), followed live by a viewer who is offered no
 * controls. The sprint,
 * dashboard and task pages at 390 and 1,400 px: a screenshot each and no
 * serious or critical axe-core violation.
 */
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { atWidths, screenshot, seriousViolations } from "./Audit.ts"
import { BrowserRig, chromiumAvailable, type User } from "./BrowserRig.ts"

describe.skipIf(!chromiumAvailable("web sprint journey"))("journey 2: a sprint in Chromium", () => {
  let rig: BrowserRig
  let owner: User
  let member: User
  let workspaceId: string
  let space: { id: string }
  let finished: string
  const names = ["Draft the release notes", "Record the demo video", "Update the pricing page"] as const
  const taskIds = new Map<string, string>()
  const call = (user: User, method: string, url: string, body?: unknown) => rig.call(user, method, url, body)
  const errors = () => [...rig.consoleErrors, ...rig.pageErrors].filter((e) => !/WebSocket|ERR_|status of 4\d\d/.test(e))
  const summary = (page: Page) => page.getByRole("region", { name: "Burndown" }).getByText(/tasks done/)

  beforeAll(async () => {
    rig = await BrowserRig.start("Sprint team")
    ;({ owner, member, workspaceId } = rig)
    space = await call(owner, "POST", `/pm/v1/workspaces/${workspaceId}/spaces`, { name: "Delivery" })
    const list = await call(owner, "POST", `/pm/v1/spaces/${space.id}/lists`, { name: "Iteration" })
    const statuses = (await call(owner, "GET", `/pm/v1/lists/${list.id}/statuses`)).items as Array<{ name: string; type: string }>
    finished = statuses.find((s) => s.type === "done")?.name ?? statuses.find((s) => s.type === "closed")!.name
    for (const name of names) taskIds.set(name, (await call(owner, "POST", `/pm/v1/lists/${list.id}/tasks`, { name })).id)
  }, 120_000)

  afterAll(async () => {
    await rig?.close()
  })

  it("journey 2: tasks completed during the sprint appear in its burndown, live; completing it feeds velocity", async () => {
    const ann = await rig.signedIn(owner, `w/${workspaceId}/work`, 1400)
    await ann.getByRole("navigation", { name: "Spaces and lists" }).getByRole("link", { name: "Sprints of Delivery" }).click()
    await ann.getByRole("heading", { name: "Sprints · Delivery", level: 1 }).waitFor()
    await ann.getByText("No sprints in this space yet.").waitFor()

    // Plan the sprint.
    await ann.getByText("Plan a sprint").click()
    await ann.getByLabel("Sprint name").fill("Launch sprint")
    await ann.getByLabel("Goal").fill("Ship the launch")
    await ann.getByRole("button", { name: "Create sprint" }).click()
    await ann.getByRole("heading", { name: "Launch sprint", level: 1 }).waitFor()
    await ann.getByText("Goal: Ship the launch").waitFor()

    // Move the backlog's three tasks into it, then start it.
    const backlog = ann.getByRole("region", { name: /Backlog/ })
    for (const name of names) await backlog.getByRole("checkbox", { name: new RegExp(name) }).check()
    await backlog.getByRole("button", { name: "Add to sprint (3)" }).click()
    const inSprint = ann.getByRole("list", { name: "Tasks in this sprint" })
    for (const name of names) await inSprint.getByRole("link", { name: new RegExp(name) }).waitFor()
    await ann.getByText("The backlog is empty: every open task is planned.").waitFor()
    await ann.getByRole("button", { name: "Start sprint" }).click()
    await ann.getByText("running", { exact: true }).waitFor()
    await expect.poll(() => summary(ann).textContent(), { timeout: 10_000 }).toContain("0 of 3 tasks done, 3 remaining")
    const sprintUrl = new URL(ann.url()).pathname

    // Ben finishes one from the sprint page on his phone; Ann's burndown follows without a reload.
    const ben = await rig.signedIn(member, sprintUrl.slice(1), 390)
    await ben.getByRole("heading", { name: "Launch sprint", level: 1 }).waitFor()
    await ben.getByLabel(`Status of ${names[0]}`).selectOption(finished)
    await expect.poll(() => summary(ann).textContent(), { timeout: 10_000 }).toContain("1 of 3 tasks done, 2 remaining")
    await screenshot(ben, "sprint")

    // Another is finished elsewhere (through the API): both pages show it.
    await call(owner, "PATCH", `/pm/v1/tasks/${taskIds.get(names[1])}`, { status: finished })
    await expect.poll(() => summary(ann).textContent(), { timeout: 10_000 }).toContain("2 of 3 tasks done, 1 remaining")
    await expect.poll(() => summary(ben).textContent(), { timeout: 10_000 }).toContain("2 of 3 tasks done, 1 remaining")
    // Today's row of the burndown table counts them.
    await ann.getByText("Burndown by day", { exact: true }).click()
    // The last day with numbers (days still ahead show dashes).
    const today = ann
      .getByRole("table", { name: /Burndown by day/ })
      .getByRole("row")
      .filter({ hasText: /\d/, hasNotText: "–" })
      .last()
    expect(await today.getByRole("cell").allTextContents()).toEqual(["3", "2", "1", expect.any(String)])
    await ann.getByLabel("Launch sprint progress").waitFor()
    await screenshot(ann, "sprint")

    // Ann completes the sprint (the unfinished task back to the backlog): the space's velocity shows it.
    await ann.getByLabel("Unfinished tasks go").selectOption("backlog")
    await ann.getByRole("button", { name: "Complete sprint" }).click()
    await ann.getByRole("button", { name: "Complete sprint" }).waitFor({ state: "detached" })
    await ann.getByText("Back to the backlog", { exact: true }).waitFor()
    await ann.getByRole("link", { name: "All sprints of the space" }).click()
    const velocity = ann.getByRole("region", { name: "Velocity" })
    await velocity.getByText("Average 2 tasks completed over the last 1 sprint; last: 2 of 3.").waitFor()
    await velocity.getByRole("img", { name: "Velocity chart" }).waitFor()
    await ann.getByRole("region", { name: "Completed" }).getByRole("link", { name: "Launch sprint" }).waitFor()
    await screenshot(ann, "sprints")

    // A viewer reads sprints but is offered no planning controls.
    await call(owner, "PATCH", `/hub/v1/workspaces/${workspaceId}/members/${member.userId}`, { role: "viewer" })
    const viewer = await rig.signedIn(member, `w/${workspaceId}/work/spaces/${space.id}/sprints`, 1400)
    await viewer.getByRole("heading", { name: "Sprints · Delivery", level: 1 }).waitFor()
    await viewer.getByRole("region", { name: "Completed" }).getByRole("link", { name: "Launch sprint" }).click()
    await viewer.getByRole("heading", { name: "Launch sprint", level: 1 }).waitFor()
    await viewer.getByRole("region", { name: "Burndown" }).getByText("2 of 3 tasks done").waitFor()
    expect(await viewer.getByText("Plan a sprint").count()).toBe(0)
    expect(await viewer.getByRole("button", { name: /Start sprint|Complete sprint|Add to sprint/ }).count()).toBe(0)
    expect(errors()).toEqual([])
  }, 180_000)

  it("a dashboard over the space: widgets added from the page, drawn from the live tasks", async () => {
    const ann = await rig.signedIn(owner, `w/${workspaceId}/work`, 1400)
    await ann.getByRole("navigation", { name: "Spaces and lists" }).getByRole("link", { name: "Dashboards" }).click()
    await ann.getByRole("heading", { name: "Dashboards", level: 1 }).waitFor()
    await ann.getByLabel("Dashboard name").fill("Delivery health")
    await ann.getByLabel("Over").selectOption({ label: "space Delivery" })
    await ann.getByRole("button", { name: "Create dashboard" }).click()
    await ann.getByRole("heading", { name: "Delivery health", level: 1 }).waitFor()
    // Created with tasks by status: two finished during the sprint, one still open.
    const byStatus = ann.getByRole("region", { name: "Tasks by status" })
    await byStatus.getByText(`most: ${finished} (2)`, { exact: false }).waitFor({ timeout: 10_000 })

    await ann.getByText("Add a widget").click()
    await ann.getByLabel(/^Widget/).selectOption({ label: "Sprint burndown" })
    await ann.getByLabel(/^Sprint/).selectOption({ label: "Launch sprint" })
    await ann.getByRole("button", { name: "Add widget" }).click()
    await ann.getByRole("img", { name: "Burndown chart (tasks)" }).waitFor({ timeout: 10_000 })
    await ann.getByLabel(/^Widget/).selectOption({ label: "Velocity" })
    await ann.getByRole("button", { name: "Add widget" }).click()
    await ann.getByRole("img", { name: "Velocity chart" }).waitFor({ timeout: 10_000 })

    // A task finished elsewhere moves the counts without a reload.
    await call(owner, "PATCH", `/pm/v1/tasks/${taskIds.get(names[2])}`, { status: finished })
    await byStatus.getByText(`most: ${finished} (3)`, { exact: false }).waitFor({ timeout: 10_000 })
    await screenshot(ann, "dashboard")
    expect(errors()).toEqual([])
  }, 120_000)

  it("a task's custom fields: set from the task page by a member of the space, read-only for a viewer", async () => {
    const size = await call(owner, "POST", `/pm/v1/spaces/${space.id}/custom-fields`, {
      name: "Size",
      type: "dropdown",
      options: [{ name: "S" }, { name: "M" }, { name: "L" }]
    })
    await call(owner, "POST", `/pm/v1/spaces/${space.id}/custom-fields`, { name: "Customer facing", type: "checkbox" })
    await call(owner, "POST", `/pm/v1/spaces/${space.id}/custom-fields`, { name: "Points", type: "number" })
    const taskId = taskIds.get(names[0])!
    const values = async () =>
      Object.fromEntries(
        ((await call(owner, "GET", `/pm/v1/tasks/${taskId}/custom-fields`)).items as Array<{ name: string; value: unknown }>).map((f) => [
          f.name,
          f.value
        ])
      )
    const ann = await rig.signedIn(owner, `w/${workspaceId}/work/tasks/${taskId}`, 1400)
    const fields = ann.getByRole("region", { name: "Custom fields" })
    await fields.getByLabel(/^Size/).selectOption({ label: "M" })
    await fields.getByLabel("Customer facing").check()
    await fields.getByLabel("Points").fill("5")
    await fields.getByLabel("Points").press("Tab")
    const m = (size.config?.options ?? size.options ?? []).find((o: { name: string }) => o.name === "M")?.id
    await expect
      .poll(values, { timeout: 10_000 })
      .toEqual({ Size: expect.objectContaining({ id: m, name: "M" }), "Customer facing": true, Points: 5 })
    await screenshot(ann, "task-custom-fields")

    // Ben is a viewer by now (journey 2 made him one): he reads the values, changes none.
    const ben = await rig.signedIn(member, `w/${workspaceId}/work/tasks/${taskId}`, 390)
    const his = ben.getByRole("region", { name: "Custom fields" })
    await expect.poll(() => his.getByLabel("Customer facing").isChecked(), { timeout: 10_000 }).toBe(true)
    expect(await his.getByLabel("Customer facing").isDisabled()).toBe(true)
    expect(await his.getByLabel(/^Size/).isDisabled()).toBe(true)
    expect(await his.getByLabel(/^Size/).inputValue()).toBe(m)
    expect(await his.getByLabel("Points").getAttribute("readonly")).not.toBeNull()
  }, 120_000)

  it("a sprint series: created, a sprint planned in it, changed and deleted; a viewer follows it live without the controls", async () => {
    const route = `w/${workspaceId}/work/spaces/${space.id}/sprints`
    const [ann, ben] = await Promise.all([rig.signedIn(owner, route, 1400), rig.signedIn(member, route, 390)])
    for (const page of [ann, ben]) await page.getByRole("heading", { name: "Sprints · Delivery", level: 1 }).waitFor()
    await ben.getByText("No series yet: sprints are planned one by one.").waitFor()

    // Ann creates a series of one-week sprints that plans the next one by itself.
    await ann.getByText("New series").click()
    const create = ann.getByRole("form", { name: "New series" })
    await create.getByLabel("Series name").fill("Platform train")
    await create.getByLabel("Sprint length (days)").fill("7")
    await create.getByLabel("Plan the next sprint when one completes").check()
    await create.getByRole("button", { name: "Create series" }).click()
    const series = (page: Page) => page.getByRole("list", { name: "Sprint series" })
    // Ben sees it without a reload.
    for (const page of [ann, ben])
      await series(page)
        .getByRole("listitem", { name: "Platform train" })
        .getByText("7-day sprints, the next planned automatically · 0 planned, 0 running, 0 completed")
        .waitFor({ timeout: 10_000 })
    const groups = async () => (await call(owner, "GET", `/pm/v1/spaces/${space.id}/sprint-groups`)).items
    const [group] = await groups()
    expect(group).toMatchObject({ name: "Platform train", defaultLengthDays: 7, autoCreateNext: true })
    expect(await ben.getByRole("button", { name: /Edit Platform train|Delete Platform train/ }).count()).toBe(0)
    expect(await ben.getByText("New series").count()).toBe(0)

    // A sprint planned in the series; the list narrowed to the series shows it; Ben's count follows.
    await ann.getByText("Plan a sprint").click()
    await ann.getByLabel("Sprint name").fill("Train 1")
    await ann.getByLabel("Series", { exact: true }).selectOption({ label: "Platform train" })
    await ann.getByRole("button", { name: "Create sprint" }).click()
    await ann.getByRole("heading", { name: "Train 1", level: 1 }).waitFor()
    const train = ((await call(owner, "GET", `/pm/v1/spaces/${space.id}/sprints`)).items as Array<{ name: string; id: string }>).find(
      (sprint) => sprint.name === "Train 1"
    )!
    expect((await call(owner, "GET", `/pm/v1/sprints/${train.id}`)).sprintGroupId).toBe(group.id)
    await series(ben)
      .getByText(/· 1 planned, 0 running, 0 completed/)
      .waitFor({ timeout: 10_000 })
    await ann.goto(`${rig.atrium.origin}/${route}`)
    await ann.getByLabel("Show sprints of").selectOption({ label: "Platform train" })
    await ann.getByRole("region", { name: "Planned" }).getByRole("link", { name: "Train 1" }).waitFor()
    expect(await ann.getByRole("region", { name: "Completed" }).count()).toBe(0)
    await screenshot(ann, "sprint-series")
    for (const page of [ann, ben])
      for (const v of await seriousViolations(page)) throw new Error(`sprint series: ${v.id} ${v.help} at ${v.targets.join(", ")}`)

    // Ann renames it and makes its sprints two weeks long.
    await series(ann).getByRole("button", { name: "Edit Platform train" }).click()
    const edit = ann.getByRole("form", { name: "Edit Platform train" })
    await edit.getByLabel("Series name").fill("Platform release train")
    await edit.getByLabel("Sprint length (days)").fill("14")
    await edit.getByRole("button", { name: "Save series" }).click()
    await series(ben).getByRole("listitem", { name: "Platform release train" }).waitFor({ timeout: 10_000 })
    expect((await groups())[0]).toMatchObject({ name: "Platform release train", defaultLengthDays: 14 })

    // Deleted (asked twice): its sprint stays in the space, outside any series.
    await series(ann).getByRole("button", { name: "Delete Platform release train" }).click()
    await ann.getByRole("button", { name: "Delete Platform release train (its sprints stay)" }).click()
    await ben.getByText("No series yet: sprints are planned one by one.").waitFor({ timeout: 10_000 })
    expect(await groups()).toEqual([])
    expect((await call(owner, "GET", `/pm/v1/sprints/${train.id}`)).sprintGroupId).toBe(null)
    expect(errors()).toEqual([])
  }, 120_000)

  it("the sprint pages at 390 and 1,400 px: a screenshot each and no serious or critical axe violation", async () => {
    const sprints = (await call(owner, "GET", `/pm/v1/spaces/${space.id}/sprints`)).items as Array<{ id: string }>
    const planned = await call(owner, "POST", `/pm/v1/spaces/${space.id}/sprints`, { name: "Next sprint" })
    const dashboards = (await call(owner, "GET", `/pm/v1/workspaces/${workspaceId}/dashboards`)).items as Array<{ id: string }>
    const routes: Array<[string, string, string]> = [
      ["sprints", `w/${workspaceId}/work/spaces/${space.id}/sprints`, "Sprints · Delivery"],
      ["sprint-completed", `w/${workspaceId}/work/sprints/${sprints[0]!.id}`, "Launch sprint"],
      ["sprint-planned", `w/${workspaceId}/work/sprints/${planned.id}`, "Next sprint"],
      ["dashboards", `w/${workspaceId}/work/dashboards`, "Dashboards"],
      ["dashboard", `w/${workspaceId}/work/dashboards/${dashboards[0]!.id}`, "Delivery health"],
      ["task-custom-fields", `w/${workspaceId}/work/tasks/${taskIds.get(names[0])}`, names[0]]
    ]
    const found: Array<string> = []
    const page = await rig.signedIn(owner, `w/${workspaceId}`, 390)
    for (const [name, route, heading] of routes) {
      await page.goto(`${rig.atrium.origin}/${route}`)
      await page.getByRole("heading", { name: heading, level: 1 }).waitFor()
      await page.waitForLoadState("networkidle")
      await atWidths(page, [390, 1400], async (width) => {
        await screenshot(page, name)
        for (const v of await seriousViolations(page))
          found.push(`${name} @${width}: ${v.id} (${v.impact}) ${v.help} at ${v.targets.join(", ")}`)
      })
    }
    expect(found).toEqual([])
  }, 300_000)
})
