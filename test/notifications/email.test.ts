/**
 * Notifications people receive by e-mail (issue 24), against a real SMTP
 * server (smtp-server), each message parsed with mailparser: voters of a
 * request its linked work completes get one e-mail each, with both parts,
 * the RFC 8058 headers and an unsubscribe link that works without a session;
 * a pm mention is mailed at once; daily kinds wait for the user's morning and
 * arrive as one digest, leaving out what they can no longer see.
 */
import type { ParsedMail } from "mailparser"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nextMorning } from "../../actors/notifications/Morning.ts"
import { sendDueNotifications } from "../../actors/notifications/Sender.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { eventually } from "../support/collabAtrium.ts"
import { createBoard, createRequest, newTeam, type Team } from "../feedback/fixture.ts"
import { type NotificationMail, parsed, startNotificationMail } from "./support.ts"

let atrium: TestServer
let smtp: NotificationMail
let t: Team
let spaceId: string
let listId: string

beforeAll(async () => {
  smtp = await startNotificationMail()
  atrium = await startAtrium()
  smtp.linkTo(atrium.origin)
  t = await newTeam(atrium)
  const space = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/spaces`, {
    token: t.owner.token,
    body: { name: "Product" }
  })
  expect(space.status, space.text).toBe(201)
  spaceId = space.body.id
  const list = await atrium.request("POST", `/pm/v1/spaces/${spaceId}/lists`, { token: t.owner.token, body: { name: "Build" } })
  expect(list.status, list.text).toBe(201)
  listId = list.body.id
})
afterAll(async () => {
  await atrium?.close()
  await smtp?.close()
})

const mailsTo = (email: string) => smtp.mailsTo(email)
/** A header as sent (mailparser folds the List-* headers into a structure; the raw line is what a mail client reads). */
const header = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line ?? ""
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n\s+/g, " ")
    .trim()
}
const newTask = async (name: string, list = listId, token = t.owner.token) => {
  const created = await atrium.request("POST", `/pm/v1/lists/${list}/tasks`, { token, body: { name } })
  expect(created.status, created.text).toBe(201)
  return created.body as { id: string; shortId: string }
}
const setTaskStatus = async (taskId: string, status: string) => {
  const changed = await atrium.request("PATCH", `/pm/v1/tasks/${taskId}`, { token: t.owner.token, body: { status } })
  expect(changed.status, changed.text).toBe(200)
}
const outbox = (userId: string) =>
  atrium.sql<{ kind: string; mode: string; state: string; due_at: string | null }>(
    "SELECT kind, mode, state, due_at FROM notification_outbox WHERE user_id = $1 ORDER BY created_at",
    [userId]
  )

describe("notification e-mail", () => {
  it("a request its two linked tasks complete: each of its three voters gets exactly one e-mail; its link unsubscribes without a session", async () => {
    const board = await createBoard(atrium, t, { name: "Roadmap" })
    const options = (await atrium.request("GET", `/feedback/v1/boards/${board.id}/statuses`, { token: t.owner.token })).body
      .items as Array<{
      id: string
      type: string
    }>
    const declared = await atrium.request("PUT", `/feedback/v1/boards/${board.id}/work-progress`, {
      token: t.admin.token,
      body: {
        startedStatusId: options.find((o) => o.type === "in_progress")!.id,
        doneStatusId: options.find((o) => o.type === "shipped")!.id
      }
    })
    expect(declared.status, declared.text).toBe(200)
    const request = await createRequest(atrium, t.member.token, board.id, { title: "Offline mode" })
    const voters = [t.owner, t.admin, t.viewer]
    for (const voter of voters) {
      const voted = await atrium.request("POST", `/feedback/v1/feature-requests/${request.id}/votes`, { token: voter.token })
      expect(voted.status, voted.text).toBeLessThan(300)
    }
    const one = await newTask("Sync engine")
    const two = await newTask("Conflict UI")
    for (const task of [one, two]) {
      expect(
        (await atrium.request("PUT", `/feedback/v1/feature-requests/${request.id}/tasks/${task.id}`, { token: t.member.token })).status
      ).toBe(200)
    }
    await setTaskStatus(one.id, "in progress")
    await eventually(
      async () => (await outbox(t.viewer.userId)).some((row) => row.kind === "status_change"),
      "the in-progress move is in the outbox"
    )
    await setTaskStatus(one.id, "done")
    await setTaskStatus(two.id, "done")
    await eventually(async () => voters.every((voter) => mailsTo(voter.email).length >= 1), "every voter is mailed")

    for (const voter of voters) {
      // Settled: the completion mailed, the in-progress move waiting for tomorrow's digest; nothing else on its way.
      await eventually(
        async () => (await outbox(voter.userId)).every((row) => row.state !== "pending" || row.mode !== "instant"),
        "nothing instant waits"
      )
      const rows = await outbox(voter.userId)
      expect(rows.filter((row) => row.kind === "request_completed")).toEqual([expect.objectContaining({ state: "mailed" })])
      expect(rows.filter((row) => row.kind === "status_change")).toEqual([expect.objectContaining({ state: "pending", mode: "daily" })])
      expect(mailsTo(voter.email)).toHaveLength(1)
    }

    const mail = await parsed(mailsTo(t.viewer.email)[0]!.raw)
    expect(mail.subject).toContain("Offline mode")
    expect(mail.text).toContain("Offline mode")
    expect(mail.text).toContain(`${atrium.origin}/w/${t.workspaceId}/feedback/${board.id}/requests/${request.id}`)
    expect(mail.html).toContain("Offline mode")
    expect(mail.html).toContain(`href="${atrium.origin}/w/${t.workspaceId}/feedback/${board.id}/requests/${request.id}"`)
    expect(header(mail, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")
    const unsubscribe = /<([^>]+)>/.exec(header(mail, "list-unsubscribe"))![1]!
    expect(unsubscribe.startsWith(`${atrium.origin}/hub/v1/notification-delivery/unsubscribe?token=`)).toBe(true)
    // People open the web app's page (it tells what the link stops, and stops it on a click); mail clients POST the header's URL.
    const page = `${atrium.origin}/unsubscribe?token=${new URL(unsubscribe).searchParams.get("token")}`
    expect(mail.text).toContain(page)
    expect(mail.html).toContain(`href="${page}"`)
    expect(mail.text).toContain(`${atrium.origin}/w/${t.workspaceId}/settings/notifications`)
    const path = unsubscribe.slice(atrium.origin.length)

    // A GET (a link checker) changes nothing; the one-click POST, with no session, does.
    const described = await atrium.request("GET", path)
    expect(described.status, described.text).toBe(200)
    expect(described.body).toEqual({ kind: "request_completed", mode: "instant", changed: false })
    const clicked = await atrium.request("POST", path, {
      rawBody: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expect(clicked.status, clicked.text).toBe(200)
    expect(clicked.body).toEqual({ kind: "request_completed", mode: "off", changed: true })
    const preferences = await atrium.request("GET", "/hub/v1/users/me/notification-delivery", { token: t.viewer.token })
    expect(preferences.status).toBe(200)
    expect(preferences.body.kinds).toContainEqual({ kind: "request_completed", mode: "off", default: "instant", areas: ["feedback"] })
    const forged = await atrium.request("POST", `${path.slice(0, -3)}xyz`)
    expect(forged.status).toBe(400)
    expect(forged.body.error.details).toEqual([{ path: "query.token", message: "invalid token" }])
  })

  it("a pm mention is mailed at once, with both parts and a link to the task", async () => {
    const task = await newTask("Review the cache headers")
    const commented = await atrium.request("POST", `/pm/v1/tasks/${task.id}/comments`, {
      token: t.owner.token,
      body: { text: `@${t.member.email} can you take a look?` }
    })
    expect(commented.status, commented.text).toBe(201)
    await eventually(async () => {
      for (const received of mailsTo(t.member.email)) if ((await parsed(received.raw)).subject?.includes("mentioned")) return true
      return false
    }, "the mention is mailed")
    const all = await Promise.all(mailsTo(t.member.email).map((received) => parsed(received.raw)))
    const mention = all.filter((mail) => mail.subject?.includes("mentioned") && mail.subject.includes(task.shortId))
    expect(mention).toHaveLength(1)
    expect(mention[0]!.text).toContain(`${atrium.origin}/w/${t.workspaceId}/work/tasks/${task.id}`)
    expect(mention[0]!.html).toContain(`/work/tasks/${task.id}`)
    expect(header(mention[0]!, "list-unsubscribe")).toContain("/hub/v1/notification-delivery/unsubscribe?token=")
  })

  it("daily kinds wait for the user's morning and arrive as one digest; an item they lost access to is left out", async () => {
    // A member of their own: nothing from the other tests waits for their morning.
    const reader = await signUp(atrium, "Reader")
    const added = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/members`, {
      token: t.owner.token,
      body: { email: reader.email, role: "member" }
    })
    expect(added.status, added.text).toBe(201)
    const zone = await atrium.request("PATCH", "/pm/v1/users/me/settings", { token: reader.token, body: { timezone: "Asia/Tokyo" } })
    expect(zone.status, zone.text).toBe(200)
    const hidden = await atrium.request("POST", `/pm/v1/workspaces/${t.workspaceId}/spaces`, {
      token: t.owner.token,
      body: { name: "Secret" }
    })
    expect(hidden.status, hidden.text).toBe(201)
    const hiddenList = await atrium.request("POST", `/pm/v1/spaces/${hidden.body.id}/lists`, {
      token: t.owner.token,
      body: { name: "Plans" }
    })
    const tasks = [
      ...(await Promise.all(["Alpha", "Bravo", "Charlie", "Delta", "Echo"].map((name) => newTask(`Digest ${name}`)))),
      await newTask("Digest Secret", hiddenList.body.id)
    ]
    for (const task of tasks) {
      const watched = await atrium.request("POST", `/pm/v1/tasks/${task.id}/watchers`, {
        token: t.owner.token,
        body: { userId: reader.userId }
      })
      expect(watched.status, watched.text).toBe(201)
    }
    const before = mailsTo(reader.email).length
    const since = new Date().toISOString()
    for (const task of tasks) {
      const commented = await atrium.request("POST", `/pm/v1/tasks/${task.id}/comments`, {
        token: t.owner.token,
        body: { text: "Status update" }
      })
      expect(commented.status, commented.text).toBe(201)
    }
    const digestRows = () =>
      atrium.sql<{ due_at: string | null }>(
        "SELECT due_at FROM notification_outbox WHERE user_id = $1 AND kind = 'comment' AND state = 'pending' AND created_at >= $2",
        [reader.userId, since]
      )
    await eventually(async () => (await digestRows()).length === 6, "six comments wait for the digest")
    await atrium.run(sendDueNotifications(Date.now()))
    const scheduled = await digestRows()
    const due = Date.parse(String(scheduled[0]!.due_at))
    expect(scheduled.every((row) => Date.parse(String(row.due_at)) === due)).toBe(true)
    expect(due).toBe(nextMorning(Date.parse(since) - 1000, "Asia/Tokyo", "daily"))
    expect(new Intl.DateTimeFormat("en-GB", { timeZone: "Asia/Tokyo", hour: "2-digit", minute: "2-digit" }).format(due)).toBe("08:00")
    expect(mailsTo(reader.email).length).toBe(before)

    // The reader loses the secret space before their morning.
    const closed = await atrium.request("PATCH", `/pm/v1/spaces/${hidden.body.id}`, { token: t.owner.token, body: { isPrivate: true } })
    expect(closed.status, closed.text).toBe(200)
    await atrium.run(sendDueNotifications(due))
    await eventually(async () => mailsTo(reader.email).length > before, "the digest is mailed")
    const digests = (
      await Promise.all(
        mailsTo(reader.email)
          .slice(before)
          .map((received) => parsed(received.raw))
      )
    ).filter((mail) => mail.subject?.startsWith("Your daily digest"))
    expect(digests).toHaveLength(1)
    const digest = digests[0]!
    expect(digest.subject).toBe("Your daily digest: 5 updates")
    for (const task of tasks.slice(0, 5)) {
      expect(digest.text).toContain(`New comment on ${task.shortId}: Digest`)
      expect(digest.html).toContain(`/work/tasks/${task.id}`)
    }
    expect(digest.text).not.toContain("Digest Secret")
    expect(digest.html).not.toContain("Digest Secret")
    expect(digest.text).toContain("== Acme ==")
    expect(digest.text).toContain("Work:")
    expect(header(digest, "list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click")
    const states = await atrium.sql<{ state: string; n: number }>(
      "SELECT state, count(*)::int AS n FROM notification_outbox WHERE user_id = $1 AND kind = 'comment' AND created_at >= $2 GROUP BY state ORDER BY state",
      [reader.userId, since]
    )
    expect(states).toEqual([
      { state: "mailed", n: 5 },
      { state: "no_access", n: 1 }
    ])
  })
})
