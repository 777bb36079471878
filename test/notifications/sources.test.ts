/**
 * Notifications beyond pm and feedback (issue 24): the wiki (a mention in a
 * page comment, a reply to your comment, a restricted page shared with you)
 * and the hub (your notes of a call are ready, a call's action item assigned
 * to you) go through the same outbox, with the same per-kind preferences,
 * and are mailed once, against a real SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sendDueNotifications } from "../../actors/notifications/Sender.ts"
import { settled } from "../hub/support/calls.ts"
import { startAtrium, type TestServer } from "../support/atrium.ts"
import { eventually } from "../support/collabAtrium.ts"
import { createPage, createSpace, type Team, team, type User } from "../wiki/editing/fixture.ts"
import { type NotificationMail, parsed, startNotificationMail } from "./support.ts"

let atrium: TestServer
let smtp: NotificationMail
let t: Team

beforeAll(async () => {
  smtp = await startNotificationMail()
  atrium = await startAtrium()
  smtp.linkTo(atrium.origin)
  t = await team(atrium)
}, 120_000)
afterAll(async () => {
  await atrium?.close()
  await smtp?.close()
})

const mailsTo = (user: User) => smtp.mailsTo(user.email)
const subjects = async (user: User) => Promise.all(mailsTo(user).map(async (mail) => (await parsed(mail.raw)).subject ?? ""))
const outbox = (user: User, area: string) =>
  atrium.sql<{ id: string; kind: string; mode: string; state: string; link: string }>(
    "SELECT id, kind, mode, state, link FROM notification_outbox WHERE user_id = $1 AND area = $2 ORDER BY created_at, id",
    [user.userId, area]
  )
const prefer = async (user: User, modes: Record<string, string>) => {
  const set = await atrium.request("PATCH", "/hub/v1/users/me/notification-delivery", { token: user.token, body: modes })
  expect(set.status, set.text).toBe(200)
}
/** Waits until none of the user's instant rows is pending (each mailed or settled without mail). */
const drained = (user: User) =>
  eventually(
    async () =>
      (await atrium.sql("SELECT 1 FROM notification_outbox WHERE user_id = $1 AND mode = 'instant' AND state = 'pending'", [user.userId]))
        .length === 0,
    "the instant rows are settled"
  )

describe("wiki notifications by e-mail", () => {
  it("a mention is mailed at once, a reply to your comment as you chose, each once; an edit re-mentioning nobody new mails nothing", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.owner.token, space.id, { title: "Launch plan" })
    await prefer(t.member, { comment: "instant" })
    await prefer(t.viewer, { mention: "off" })

    const root = await atrium.request("POST", `/wiki/v1/pages/${page.id}/comments`, {
      token: t.member.token,
      body: { body: "Can you check the dates?", mentionUserIds: [t.admin.userId, t.viewer.userId] }
    })
    expect(root.status, root.text).toBe(201)
    await eventually(() => mailsTo(t.admin).length === 1, "the admin is mailed the mention")
    const mention = await parsed(mailsTo(t.admin)[0]!.raw)
    expect(mention.subject).toBe('You were mentioned in a comment on "Launch plan"')
    expect(mention.text).toContain(`${atrium.origin}/w/${t.workspaceId}/wiki/${space.id}/${page.id}`)
    expect(mention.html).toContain(`href="${atrium.origin}/w/${t.workspaceId}/wiki/${space.id}/${page.id}"`)
    // The viewer switched mentions off: no row, no mail.
    expect(await outbox(t.viewer, "wiki")).toEqual([])

    const reply = await atrium.request("POST", `/wiki/v1/comments/${root.body.id}/replies`, {
      token: t.admin.token,
      body: { body: "Dates look right" }
    })
    expect(reply.status, reply.text).toBe(201)
    await eventually(() => mailsTo(t.member).length === 1, "the thread's author is mailed the reply")
    expect(await subjects(t.member)).toEqual(['New reply to your comment on "Launch plan"'])
    // Replying in one's own thread notifies nobody.
    expect(
      (await atrium.request("POST", `/wiki/v1/comments/${root.body.id}/replies`, { token: t.member.token, body: { body: "Thanks" } }))
        .status
    ).toBe(201)

    // Editing the comment, still mentioning the admin: nothing new is sent.
    const edited = await atrium.request("PATCH", `/wiki/v1/comments/${root.body.id}`, {
      token: t.member.token,
      body: { body: "Can you check the dates again?", mentionUserIds: [t.admin.userId] }
    })
    expect(edited.status, edited.text).toBe(200)
    await drained(t.admin)
    await drained(t.member)
    expect(mailsTo(t.admin)).toHaveLength(1)
    expect(mailsTo(t.member)).toHaveLength(1)
    expect((await outbox(t.admin, "wiki")).map((row) => [row.kind, row.state])).toEqual([["mention", "mailed"]])
    expect((await outbox(t.member, "wiki")).map((row) => [row.kind, row.state])).toEqual([["comment", "mailed"]])
  })

  it("a restricted page shared with a user waits for their digest; losing the page before their morning leaves it out", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.owner.token, space.id, { title: "Salaries" })
    const restricted = await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, {
      token: t.owner.token,
      body: { restriction: "view" }
    })
    expect(restricted.status, restricted.text).toBe(200)
    const shared = await atrium.request("POST", `/wiki/v1/pages/${page.id}/permissions/entries`, {
      token: t.owner.token,
      body: { userId: t.member.userId, access: "view" }
    })
    expect(shared.status, shared.text).toBeLessThan(300)
    // Changing the entry's access is no second share.
    expect(
      (
        await atrium.request("POST", `/wiki/v1/pages/${page.id}/permissions/entries`, {
          token: t.owner.token,
          body: { userId: t.member.userId, access: "edit" }
        })
      ).status
    ).toBeLessThan(300)
    const rows = (await outbox(t.member, "wiki")).filter((row) => row.kind === "shared")
    expect(rows).toEqual([
      expect.objectContaining({ mode: "daily", state: "pending", link: `/w/${t.workspaceId}/wiki/${space.id}/${page.id}` })
    ])

    // Taken off the page before the digest: left out of it.
    const entries = await atrium.request("GET", `/wiki/v1/pages/${page.id}/permissions`, { token: t.owner.token })
    const entry = entries.body.entries.find((e: { userId: string | null }) => e.userId === t.member.userId)
    expect(
      (await atrium.request("DELETE", `/wiki/v1/pages/${page.id}/permissions/entries/${entry.id}`, { token: t.owner.token })).status
    ).toBe(204)
    await atrium.run(sendDueNotifications(Date.now() + 8 * 86_400_000))
    const [row] = await atrium.sql<{ state: string }>("SELECT state FROM notification_outbox WHERE id = $1", [rows[0]!.id])
    expect(row!.state).toBe("no_access")
  })
})

describe("hub notifications by e-mail", () => {
  it("a call's notes ready reach its people by digest; an action item assigned to someone else is mailed to them once", async () => {
    const created = await atrium.request("POST", "/hub/v1/recordings", {
      token: t.owner.token,
      body: {
        workspaceId: t.workspaceId,
        name: "Launch review",
        attendeeEmails: [t.member.email],
        transcript: {
          format: "segments",
          segments: [
            { speaker: "Owner", startMs: 0, endMs: 4000, text: "Welcome, today we review the launch plan for the mobile app." },
            { speaker: "Owner", startMs: 4100, endMs: 9000, text: "Member, can you fix the login bug before the release?" },
            { speaker: "Member", startMs: 9100, endMs: 13000, text: "I'll send the revised launch timeline by Friday." }
          ]
        }
      }
    })
    expect(created.status, created.text).toBe(202)
    expect(await settled(atrium, t.owner.token, created.body.id)).toMatchObject({ status: "ready" })
    const link = `/w/${t.workspaceId}/meetings/${created.body.callId}`
    for (const user of [t.owner, t.member])
      expect((await outbox(user, "hub")).filter((row) => row.kind === "notes_ready")).toEqual([
        expect.objectContaining({ mode: "daily", state: "pending", link })
      ])

    const call = await atrium.request("GET", `/hub/v1/calls/${created.body.callId}`, { token: t.owner.token })
    const item = call.body.actionItems[0]
    expect(item).toBeDefined()
    const assign = (email: string | null) =>
      atrium.request("PUT", `/hub/v1/calls/by-uuid/${created.body.callUuid}/action-items/${item.id}/assignee`, {
        token: t.owner.token,
        body: { email }
      })
    const before = mailsTo(t.member).length
    expect((await assign(t.member.email)).status).toBe(200)
    await eventually(() => mailsTo(t.member).length === before + 1, "the assignee is mailed")
    const mail = await parsed(mailsTo(t.member).at(-1)!.raw)
    expect(mail.subject).toBe(`Action item from "Launch review" assigned to you: ${item.text}`)
    expect(mail.text).toContain(`${atrium.origin}${link}`)
    // Assigned to oneself, then back to the same person: no new mail.
    expect((await assign(t.owner.email)).status).toBe(200)
    expect((await assign(t.member.email)).status).toBe(200)
    await drained(t.member)
    await drained(t.owner)
    expect(mailsTo(t.member)).toHaveLength(before + 1)
    expect((await outbox(t.owner, "hub")).map((row) => row.kind)).toEqual(["notes_ready"])

    // Their morning: the owner's digest lists the call's notes.
    const ownerBefore = mailsTo(t.owner).length
    await atrium.run(sendDueNotifications(Date.now() + 8 * 86_400_000))
    await eventually(() => mailsTo(t.owner).length > ownerBefore, "the owner's digest")
    const digest = await parsed(mailsTo(t.owner).at(-1)!.raw)
    expect(digest.subject).toMatch(/^Your daily digest/)
    expect(digest.text).toContain('Your notes of "Launch review" are ready')
    expect(digest.text).toContain("Meetings:")
  })
})
