/**
 * Import + Bulk Jobs: CSV with a mapping preview, ClickUp CSV and Trello JSON
 * into a list as background jobs, per-row errors, re-runs that never import a
 * row twice (retry, idempotency key, and a job resumed after a crash).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type PmAtrium, startPmAtrium } from "../work/support/pmAtrium.ts"
import { eventually, workspaceWithList } from "./support.ts"

process.env.PM_BULK_POLL_MS = "20"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof workspaceWithList>>

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await workspaceWithList(atrium)
})
afterAll(() => atrium?.close())

const finished = (importId: string) =>
  eventually(async () => {
    const job = await w.call("GET", `/v1/imports/${importId}`)
    return job.status === "completed" ? job : undefined
  })
const tasksIn = async (listId: string) => (await w.call("GET", `/v1/lists/${listId}/tasks?limit=200`)).items as Array<any>
const newList = async (name: string) => (await w.call("POST", `/v1/spaces/${w.spaceId}/lists`, { name })).id as string

describe("imports", () => {
  it("previews a CSV mapping, imports it with per-row errors, and re-runs without duplicates", async () => {
    const listId = await newList("From CSV")
    const csv = [
      "Title,Notes,Priority,Due,Labels,Owner",
      `"Ship login, finally",OAuth,high,2026-12-01,frontend;auth,${w.member.email}`,
      ",no name here,low,,,",
      'Fix crash,"He said ""boom""",apocalyptic,,,',
      `Write docs,,3,,docs,nobody@example.com`
    ].join("\r\n")
    const preview = await w.call("POST", `/v1/lists/${listId}/imports/csv/preview`, { csv, mapping: { Owner: "assignees" } }, 200)
    expect(preview.columns.map((c: any) => `${c.header}:${c.target}`)).toEqual([
      "Title:name",
      "Notes:description",
      "Priority:priority",
      "Due:dueDate",
      "Labels:tags",
      "Owner:assignees"
    ])
    expect(preview.rows[0].task).toMatchObject({
      name: "Ship login, finally",
      tags: ["frontend", "auth"],
      assigneeEmails: [w.member.email]
    })
    expect(preview.rows[1].error).toContain("no task name")

    const job = await w.call(
      "POST",
      `/v1/lists/${listId}/imports/csv`,
      { csv, mapping: { Owner: "assignees" }, idempotencyKey: "csv-1" },
      202
    )
    expect(job).toMatchObject({ kind: "import", source: "csv", total: 4 })
    const done = await finished(job.id)
    expect(done).toMatchObject({ processed: 4, succeeded: 1, failed: 3, progress: 1 })
    expect(done.rows.map((r: any) => r.status)).toEqual(["succeeded", "failed", "failed", "failed"])
    expect(done.rows[2].error).toContain("priority")
    expect(done.rows[3].error).toContain("nobody@example.com")
    const [task] = await tasksIn(listId)
    expect(task).toMatchObject({ name: "Ship login, finally", priority: "high", description: "OAuth" })
    expect(task.assignees.map((a: any) => a.id)).toEqual([w.member.userId])

    // The same key again: the same job, nothing imported twice.
    const again = await w.call("POST", `/v1/lists/${listId}/imports/csv`, { csv, idempotencyKey: "csv-1" }, 202)
    expect(again.id).toBe(job.id)
    // A retry reruns the failed rows only.
    await w.call("POST", `/v1/imports/${job.id}/retry`, undefined, 202)
    const retried = await finished(job.id)
    expect(retried).toMatchObject({ succeeded: 1, failed: 3 })
    expect(await tasksIn(listId)).toHaveLength(1)
    expect(await w.call("GET", `/v1/workspaces/${w.workspaceId}/bulk-jobs/${job.id}`)).toMatchObject({ status: "completed", processed: 4 })
  })

  it("resumes a job cut short by a crash without creating a row's task twice", async () => {
    const listId = await newList("Resumed")
    const job = await w.call("POST", `/v1/lists/${listId}/imports/csv`, { csv: "Name\nOne\nTwo\nThree\n" }, 202)
    await finished(job.id)
    // As a node killed between creating row 2's task and recording it would leave it.
    await atrium.sql(
      "UPDATE pm_bulk_job_rows SET status = 'started', task_id = NULL, started_at = now() - interval '1 minute' WHERE job_id = $1 AND row_index = 2",
      [job.id]
    )
    // …and a row 3 it never reached (its task gone, as if never made).
    const three = (await tasksIn(listId)).find((t) => t.name === "Three")
    await w.call("DELETE", `/v1/tasks/${three.id}`, undefined, 204)
    await atrium.sql("DELETE FROM pm_bulk_job_rows WHERE job_id = $1 AND row_index = 3", [job.id])
    await atrium.sql(
      "UPDATE pm_bulk_jobs SET status = 'running', lease_owner = 'dead-node', lease_until = now() - interval '1 second' WHERE id = $1",
      [job.id]
    )
    // The job's actor still holds the finished state the SQL above went behind; the worker's claim reloads it.
    const names = await eventually(async () => {
      const now = (await tasksIn(listId)).map((t) => t.name).sort()
      return now.length >= 3 ? now : undefined
    })
    expect(names).toEqual(["One", "Three", "Two"])
    const resumed = await finished(job.id)
    expect(resumed).toMatchObject({ succeeded: 3, failed: 0 })
  })

  it("imports a ClickUp CSV and a Trello board", async () => {
    const listId = await newList("Moved in")
    const clickup = [
      "Task Name,Task Content,Status,Priority,Tags,Assignees",
      "Onboard Acme,Kickoff call,in progress,1,sales,",
      "Bad status,,shipped,,,"
    ].join("\n")
    const job = await w.call("POST", `/v1/lists/${listId}/imports/tool-csv`, { format: "clickup", csv: clickup }, 202)
    const done = await finished(job.id)
    expect(done).toMatchObject({ source: "clickup", succeeded: 1, failed: 1 })
    expect(done.rows[1].error).toContain("shipped")

    const board = {
      name: "Roadmap",
      lists: [
        { id: "l1", name: "In Progress" },
        { id: "l2", name: "Ideas" }
      ],
      cards: [
        { id: "c1", name: "Dark mode", desc: "Users ask", idList: "l1", labels: [{ name: "ui" }, { name: "", color: "green" }] },
        { id: "c2", name: "Old idea", idList: "l2", closed: true },
        { id: "c3", name: "  ", idList: "l2" },
        { id: "c4", name: "Offline sync", idList: "l2", due: "2027-01-15T09:00:00.000Z", extraTrelloKey: true }
      ],
      actions: []
    }
    const trello = await w.call("POST", `/v1/lists/${listId}/imports/trello`, { board }, 202)
    const imported = await finished(trello.id)
    expect(imported).toMatchObject({ source: "trello", total: 3, succeeded: 2, failed: 1 })
    expect(imported.rows[1].error).toContain("c3")
    const tasks = await tasksIn(listId)
    const dark = tasks.find((t) => t.name === "Dark mode")
    expect(dark.status.name).toBe("in progress")
    expect(dark.tags.map((t: any) => t.name).sort()).toEqual(["green", "ui"])
    expect(tasks.find((t) => t.name === "Offline sync").dueDate).toBe("2027-01-15T09:00:00.000Z")
    expect(tasks.some((t) => t.name === "Old idea")).toBe(false)
  })

  it("refuses bad input and outsiders", async () => {
    const bad = await atrium.request("POST", `/pm/v1/lists/${w.listId}/imports/csv`, {
      token: w.owner.token,
      body: { csv: '"never closed' }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.csv")
    const mapping = await atrium.request("POST", `/pm/v1/lists/${w.listId}/imports/csv/preview`, {
      token: w.owner.token,
      body: { csv: "a\n1", mapping: { a: "colour" } }
    })
    expect(mapping.status).toBe(400)
    expect(mapping.body.error.details[0].path).toMatch(/^body\.mapping/)
    expect(
      (await atrium.request("POST", `/pm/v1/lists/${w.listId}/imports/csv`, { token: w.viewer.token, body: { csv: "Name\nx" } })).status
    ).toBe(403)
    expect(
      (await atrium.request("POST", `/pm/v1/lists/${w.listId}/imports/csv`, { token: w.outsider.token, body: { csv: "Name\nx" } })).status
    ).toBe(404)
    const job = await w.call("POST", `/v1/lists/${w.listId}/imports/csv`, { csv: "Name\nVisible" }, 202)
    expect((await atrium.request("GET", `/pm/v1/imports/${job.id}`, { token: w.outsider.token })).status).toBe(404)
    expect(
      (await atrium.request("GET", `/pm/v1/workspaces/${w.otherWorkspaceId}/bulk-jobs/${job.id}`, { token: w.outsider.token })).status
    ).toBe(404)
    await finished(job.id)
  })
})
