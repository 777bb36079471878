/**
 * Two nodes sharing one PostgreSQL (and one NATS), both running the
 * notification sender: every notification is e-mailed exactly once, counted
 * at a real SMTP server. Writes go through both nodes, each wakes both
 * senders (one process: one wake-up instance), so they contend for the same
 * rows; digests are sent by both nodes' passes at once.
 * Needs PostgreSQL and NATS (skipped loudly without them, failed with ATRIUM_REQUIRE_SERVICES=1).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sendDueNotifications } from "../../actors/notifications/Sender.ts"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { eventually } from "../support/collabAtrium.ts"
import { checkPostgres, createTestDatabase, type TestDatabase } from "../support/database.ts"
import { checkNats, natsUrl, testPrefix } from "../support/nats.ts"
import { type Team, team, type User } from "../wiki/editing/fixture.ts"
import { type NotificationMail, parsed, startNotificationMail } from "./support.ts"

const available = (await checkPostgres("notification mail on two nodes")) && (await checkNats("notification mail on two nodes"))

const TASKS = 12

describe.skipIf(!available)("notification e-mail with two nodes (PostgreSQL + NATS)", () => {
  let database: TestDatabase
  let smtp: NotificationMail
  let nodeA: TestServer
  let nodeB: TestServer
  let t: Team
  let listId: string

  beforeAll(async () => {
    smtp = await startNotificationMail()
    database = await createTestDatabase()
    const shared = { databaseUrl: database.url, natsUrl: natsUrl(), natsPrefix: testPrefix() }
    nodeA = await startAtrium(shared)
    nodeB = await startAtrium(shared)
    smtp.linkTo(nodeA.origin)
    t = await team(nodeA)
    const space = await nodeA.request("POST", `/pm/v1/workspaces/${t.workspaceId}/spaces`, {
      token: t.owner.token,
      body: { name: "Product" }
    })
    expect(space.status, space.text).toBe(201)
    const list = await nodeB.request("POST", `/pm/v1/spaces/${space.body.id}/lists`, { token: t.owner.token, body: { name: "Build" } })
    expect(list.status, list.text).toBe(201)
    listId = list.body.id
  }, 120_000)
  afterAll(async () => {
    await nodeA?.close()
    await nodeB?.close()
    await database?.drop()
    await smtp?.close()
  })

  const mailsTo = (user: User) => smtp.mailsTo(user.email)
  const pending = (user: User) =>
    nodeA.sql("SELECT id FROM notification_outbox WHERE user_id = $1 AND state = 'pending' AND mode = 'instant'", [user.userId])

  it("each assignment is mailed once, and each digest once, whichever node takes it", async () => {
    // The member gets assignments in their daily digest; the admin at once (the default).
    const prefs = await nodeB.request("PATCH", "/hub/v1/users/me/notification-delivery", {
      token: t.member.token,
      body: { assignment: "daily" }
    })
    expect(prefs.status, prefs.text).toBe(200)

    const names = Array.from({ length: TASKS }, (_, i) => `Ship part ${i + 1}`)
    await Promise.all(
      names.map(async (name, i) => {
        const node = i % 2 === 0 ? nodeA : nodeB
        const created = await node.request("POST", `/pm/v1/lists/${listId}/tasks`, { token: t.owner.token, body: { name } })
        expect(created.status, created.text).toBe(201)
        for (const user of [t.admin, t.member]) {
          const assigned = await node.request("POST", `/pm/v1/tasks/${created.body.id}/assignees`, {
            token: t.owner.token,
            body: { userId: user.userId }
          })
          expect(assigned.status, assigned.text).toBeLessThan(300)
        }
      })
    )
    await eventually(async () => mailsTo(t.admin).length >= TASKS && (await pending(t.admin)).length === 0, "the admin's mails", 60_000)
    // A little longer: a duplicate would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 500))
    const subjects = await Promise.all(mailsTo(t.admin).map(async (mail) => (await parsed(mail.raw)).subject ?? ""))
    expect(subjects).toHaveLength(TASKS)
    const named = (text: string, name: string) => new RegExp(`${name}(?!\\d)`).test(text)
    for (const name of names) expect(subjects.filter((subject) => named(subject, name)).length, name).toBe(1)
    const settled = await nodeB.sql<{ state: string; mails: number }>(
      `SELECT state, count(DISTINCT mail_id)::int AS mails FROM notification_outbox WHERE user_id = $1 AND kind = 'assignment' GROUP BY state`,
      [t.admin.userId]
    )
    expect(settled).toEqual([{ state: "mailed", mails: TASKS }])
    expect(mailsTo(t.member)).toEqual([])

    // The member's morning, taken by both nodes' passes at once: one digest with every assignment.
    const morning = Date.now() + 2 * 86_400_000
    await Promise.all([nodeA.run(sendDueNotifications(morning)), nodeB.run(sendDueNotifications(morning))])
    await eventually(() => mailsTo(t.member).length >= 1, "the member's digest", 30_000)
    await new Promise((resolve) => setTimeout(resolve, 500))
    await Promise.all([nodeA.run(sendDueNotifications(morning)), nodeB.run(sendDueNotifications(morning))])
    expect(mailsTo(t.member)).toHaveLength(1)
    const digest = await parsed(mailsTo(t.member)[0]!.raw)
    expect(digest.subject).toBe(`Your daily digest: ${TASKS} updates`)
    for (const name of names) expect(named(digest.text ?? "", name), name).toBe(true)
  })
})
