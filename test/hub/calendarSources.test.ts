/**
 * A user's own calendar sources: any member connects their calendar (an
 * iCalendar address here) through the workspace's connection operations, an
 * admin likewise; each sees, syncs and disconnects only their own — another
 * user's calendar connection is 404 to everyone else, admins included, in
 * the hub's Integrations and pm's External Connections alike.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Calendar } from "../../actors/hub/calendar/Calendar.ts"
import { syncCalendarNow } from "../../actors/hub/calendar/sync/CalendarSync.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { fakeServer, json, type User, workspaceWith } from "./support/calls.ts"

const saved = { ATRIUM_ALLOW_PRIVATE_URLS: process.env.ATRIUM_ALLOW_PRIVATE_URLS, HUB_CALENDAR_POLL_MS: process.env.HUB_CALENDAR_POLL_MS }
const HOUR = 3_600_000

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "")
/** A feed of one event a day from tomorrow on, titled after its owner. */
const feedOf = (owner: string, days: number) => {
  const tomorrow = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 9 * HOUR
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Atrium test//EN",
    ...Array.from({ length: days }, (_, day) => [
      "BEGIN:VEVENT",
      `UID:${owner}-${day}@example.com`,
      `DTSTAMP:${stamp(tomorrow)}`,
      `DTSTART:${stamp(tomorrow + day * 86_400_000)}`,
      `DTEND:${stamp(tomorrow + day * 86_400_000 + HOUR / 2)}`,
      `SUMMARY:${owner} standup ${day}`,
      "END:VEVENT"
    ]).flat(),
    "END:VCALENDAR"
  ].join("\r\n")
}

let atrium: TestServer
let admin: User
let member: User
let workspaceId: string
const feeds = new Map<string, string>()
/** How often each feed path was fetched: who the sync still reads. */
const fetches = new Map<string, number>()
let feedServer: Awaited<ReturnType<typeof fakeServer>>

beforeAll(async () => {
  feedServer = await fakeServer((request, response) => {
    fetches.set(request.url!, (fetches.get(request.url!) ?? 0) + 1)
    const feed = feeds.get(request.url)
    if (feed === undefined) return json(response, 404, {})
    response.writeHead(200, { "content-type": "text/calendar" })
    response.end(feed)
  })
  // The background loop stays idle: each test syncs when it means to.
  Object.assign(process.env, { ATRIUM_ALLOW_PRIVATE_URLS: "1", HUB_CALENDAR_POLL_MS: "3600000" })
  atrium = await startAtrium()
  ;[admin, member] = await Promise.all(["Ada", "Max"].map((name) => signUp(atrium, name)))
  workspaceId = await workspaceWith(atrium, admin, [member])
}, 120_000)

afterAll(async () => {
  await atrium?.close()
  await feedServer?.close()
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

const hubPath = (suffix = "", workspace = workspaceId) => `/hub/v1/workspaces/${workspace}/integrations${suffix}`
const pmPath = (suffix = "") => `/pm/v1/workspaces/${workspaceId}/external-connections${suffix}`

const connectCalendar = async (user: User, name: string, workspace = workspaceId) => {
  const path = `/calendar/${user.userId}/basic.ics`
  feeds.set(path, feedOf(name, 3))
  return atrium.request("POST", hubPath("", workspace), {
    token: user.token,
    body: {
      vendor: "calendar",
      name: `${name}'s calendar`,
      baseUrl: feedServer.url,
      token: `${feedServer.url}${path}`,
      settings: { calendarProtocol: "ics" }
    }
  })
}

/** A calendar's status once no sync of it runs any more (a loop's turn or an earlier request). */
const settled = async (read: () => Promise<Record<string, any> | undefined>, timeoutMs = 120_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await read()
    if (status !== undefined && status.state !== "pending" && status.state !== "syncing") return status
    if (Date.now() > deadline) throw new Error(`the calendar did not settle: ${JSON.stringify(status)}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

const titlesOf = async (user: User) => {
  const from = new Date().toISOString()
  const to = new Date(Date.now() + 10 * 86_400_000).toISOString()
  const listed = await atrium.request("GET", `/hub/v1/calendar/events?from=${from}&to=${to}`, { token: user.token })
  expect(listed.status, listed.text).toBe(200)
  return (listed.body.items as Array<{ title: string }>).map((item) => item.title).sort()
}

describe("per-user calendar sources", () => {
  it("a member connects, lists, syncs and disconnects their own calendar; nobody else sees or touches it", async () => {
    // A member may connect their calendar, not a workspace system.
    const tracker = await atrium.request("POST", hubPath(), {
      token: member.token,
      body: { vendor: "tracker", name: "Tracker", baseUrl: feedServer.url, token: "secret" }
    })
    expect(tracker.status, tracker.text).toBe(403)
    const mine = await connectCalendar(member, "Max")
    expect(mine.status, mine.text).toBe(201)
    expect(mine.body).toMatchObject({ vendor: "calendar", createdBy: member.userId, hasToken: true })
    const memberCalendar = mine.body.id as string
    const theirs = await connectCalendar(admin, "Ada")
    expect(theirs.status, theirs.text).toBe(201)
    const adminCalendar = theirs.body.id as string

    // Each lists their own calendar and not the other's, in both services.
    for (const [user, own, other] of [
      [member, memberCalendar, adminCalendar],
      [admin, adminCalendar, memberCalendar]
    ] as const) {
      for (const path of [hubPath(), pmPath()]) {
        const listed = await atrium.request("GET", path, { token: user.token })
        expect(listed.status, listed.text).toBe(200)
        const ids = (listed.body.items as Array<{ id: string }>).map((item) => item.id)
        expect(ids).toContain(own)
        expect(ids).not.toContain(other)
      }
      expect((await atrium.request("GET", hubPath(`/${own}`), { token: user.token })).status).toBe(200)
      // Another user's calendar does not exist for them: read, test, refresh, revoke, disconnect.
      for (const [method, path] of [
        ["GET", hubPath(`/${other}`)],
        ["GET", pmPath(`/${other}`)],
        ["POST", pmPath(`/${other}/test`)],
        ["POST", hubPath(`/${other}/oauth/refresh`)],
        ["POST", hubPath(`/${other}/oauth/revoke`)],
        ["DELETE", hubPath(`/${other}`)],
        ["DELETE", pmPath(`/${other}`)]
      ] as const) {
        const answer = await atrium.request(method, path, { token: user.token })
        expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(404)
      }
    }

    // Each calendar syncs into its owner's calendar only.
    await atrium.run(syncCalendarNow(memberCalendar))
    await atrium.run(syncCalendarNow(adminCalendar))
    expect(await titlesOf(member)).toEqual(["Max standup 0", "Max standup 1", "Max standup 2"])
    expect(await titlesOf(admin)).toEqual(["Ada standup 0", "Ada standup 1", "Ada standup 2"])

    // The member disconnects their own (the pm operation, the same store); the admin theirs through the hub's.
    expect((await atrium.request("DELETE", pmPath(`/${memberCalendar}`), { token: member.token })).status).toBe(204)
    expect((await atrium.request("DELETE", hubPath(`/${adminCalendar}`), { token: admin.token })).status).toBe(204)
    expect((await atrium.request("GET", hubPath(`/${memberCalendar}`), { token: member.token })).status).toBe(404)
    // The next turn of the sync takes a disconnected calendar's events out of its owner's calendar.
    await atrium.run(syncCalendarNow(memberCalendar))
    expect(await titlesOf(member)).toEqual([])
  })

  it("each user sees their calendars' sync status (time, outcome, error, events, next turn) and syncs one now", async () => {
    const connected = await connectCalendar(member, "Max")
    expect(connected.status, connected.text).toBe(201)
    const connectionId = connected.body.id as string
    const statusOf = async (user: User) => {
      const listed = await atrium.request("GET", "/hub/v1/calendar/syncs", { token: user.token })
      expect(listed.status, listed.text).toBe(200)
      return (listed.body.items as Array<Record<string, any>>).find((item) => item.connectionId === connectionId)
    }
    // The loop syncs a new calendar at once (its connection wakes it): its first turn ends synced.
    const first = await settled(() => statusOf(member))
    expect(first).toMatchObject({ workspaceId, name: "Max's calendar", protocol: "ics", state: "synced", eventCount: 3, lastError: null })
    expect(first.lastSyncedAt).toBe(first.lastAttemptAt)
    // Nobody else sees or syncs it.
    expect(await statusOf(admin)).toBeUndefined()
    const foreign = await atrium.request("POST", `/hub/v1/calendar/syncs/${connectionId}/sync`, { token: admin.token })
    expect(foreign.status, foreign.text).toBe(404)

    const synced = await atrium.request("POST", `/hub/v1/calendar/syncs/${connectionId}/sync`, { token: member.token })
    expect(synced.status, synced.text).toBe(200)
    expect(synced.body.outcome).toMatchObject({ added: 0, changed: 0, removed: 0 })
    expect(synced.body.status).toMatchObject({ state: "synced", eventCount: 3, lastError: null })
    expect(Date.parse(synced.body.status.lastSyncedAt)).toBeGreaterThanOrEqual(Date.parse(first.lastSyncedAt))
    expect(synced.body.status.lastSyncedAt).toBe(synced.body.status.lastAttemptAt)
    expect(Date.parse(synced.body.status.nextSyncAt)).toBeGreaterThan(Date.parse(synced.body.status.lastSyncedAt))
    expect(await statusOf(member)).toEqual(synced.body.status)

    // The suite fails: the sync answers 502, the status keeps the error; the last success and its count stay.
    feeds.delete(`/calendar/${member.userId}/basic.ics`)
    const failed = await atrium.request("POST", `/hub/v1/calendar/syncs/${connectionId}/sync`, { token: member.token })
    expect(failed.status, failed.text).toBe(502)
    const after = await statusOf(member)
    expect(after).toMatchObject({ state: "failed", eventCount: 3, lastSyncedAt: synced.body.status.lastSyncedAt })
    expect(after!.lastError).toMatch(/404/)
    expect(Date.parse(after!.lastAttemptAt)).toBeGreaterThan(Date.parse(after!.lastSyncedAt))
    expect(await titlesOf(member)).toEqual(["Max standup 0", "Max standup 1", "Max standup 2"])
  })

  it("a calendar of 5,000 events syncs in pages: no actor message crosses the NATS cap (the in-process codec path checks it)", async () => {
    // One message carrying every event id would already be over the cap: the transport refuses it as NATS would.
    const refused = await atrium.run(
      Effect.flip(
        Effect.gen(function* () {
          const system = yield* ActorSystem
          return yield* system.ask(Calendar, member.userId, "pruneSynced", {
            feedId: randomUUID(),
            keep: Array.from({ length: 30_000 }, () => randomUUID())
          })
        })
      )
    )
    expect(refused.message).toMatch(/over the 1048576-byte NATS message cap/)

    const start = Math.ceil(Date.now() / HOUR) * HOUR + HOUR
    const path = `/calendar/${member.userId}/large.ics`
    feeds.set(
      path,
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Atrium test//EN",
        ...Array.from({ length: 5000 }, (_, n) => [
          "BEGIN:VEVENT",
          `UID:large-${n}@example.com`,
          `DTSTAMP:${stamp(start)}`,
          // One every 25 minutes: 5,000 of them within the synced window (120 days ahead).
          `DTSTART:${stamp(start + n * 25 * 60_000)}`,
          `DTEND:${stamp(start + n * 25 * 60_000 + 20 * 60_000)}`,
          `SUMMARY:Customer call ${n}`,
          `DESCRIPTION:Agenda for call ${n}: review the open tickets\\, the renewal and the roadmap questions the customer sent.`,
          `LOCATION:https://meet.example.com/call-${n}`,
          "END:VEVENT"
        ]).flat(),
        "END:VCALENDAR"
      ].join("\r\n")
    )
    expect(Buffer.byteLength(feeds.get(path)!)).toBeGreaterThan(1_048_576)
    const connected = await atrium.request("POST", hubPath(), {
      token: member.token,
      body: {
        vendor: "calendar",
        name: "Sales",
        baseUrl: feedServer.url,
        token: `${feedServer.url}${path}`,
        settings: { calendarProtocol: "ics" }
      }
    })
    expect(connected.status, connected.text).toBe(201)
    // The loop's first turn (woken by the connection) brings the 5,000 events in pages.
    const firstTurn = await settled(async () => {
      const listed = await atrium.request("GET", "/hub/v1/calendar/syncs", { token: member.token })
      return (listed.body.items as Array<Record<string, any>>).find((item) => item.connectionId === connected.body.id)
    })
    expect(firstTurn).toMatchObject({ state: "synced", eventCount: 5000 })
    // Again: nothing changes.
    const again = await atrium.request("POST", `/hub/v1/calendar/syncs/${connected.body.id}/sync`, { token: member.token })
    expect(again.status, again.text).toBe(200)
    expect(again.body.outcome).toMatchObject({ added: 0, changed: 0, removed: 0 })
    // A day of that calendar reads through a windowed ask (the whole calendar would not fit one reply).
    const day = await atrium.request(
      "GET",
      `/hub/v1/calendar/events?from=${new Date(start).toISOString()}&to=${new Date(start + 86_400_000).toISOString()}`,
      { token: member.token }
    )
    expect(day.status, day.text).toBe(200)
    expect((day.body.items as Array<{ title: string }>).filter((item) => item.title.startsWith("Customer call")).length).toBe(58)
    // One occurrence reads, and takes a prompt, through an ask of that event alone.
    const first = (day.body.items as Array<{ occurrenceId: string; title: string }>).find((item) => item.title === "Customer call 0")!
    const prompted = await atrium.request("PUT", `/hub/v1/calendar/events/${first.occurrenceId}/occurrence-prompt`, {
      token: member.token,
      body: { prompt: "Ask about the renewal" }
    })
    expect(prompted.status, prompted.text).toBe(200)
    const read = await atrium.request("GET", `/hub/v1/calendar/events/${first.occurrenceId}`, { token: member.token })
    expect(read.status, read.text).toBe(200)
    expect(read.body).toMatchObject({ title: "Customer call 0", occurrencePrompt: "Ask about the renewal" })
    // Disconnected: its 5,000 events leave the calendar.
    expect((await atrium.request("DELETE", hubPath(`/${connected.body.id}`), { token: member.token })).status).toBe(204)
    await atrium.run(syncCalendarNow(connected.body.id))
    const after = await atrium.request(
      "GET",
      `/hub/v1/calendar/events?from=${new Date(start).toISOString()}&to=${new Date(start + 86_400_000).toISOString()}`,
      { token: member.token }
    )
    expect((after.body.items as Array<{ title: string }>).filter((item) => item.title.startsWith("Customer call"))).toEqual([])
  }, 300_000)

  it("a member who leaves the workspace, or is removed from it, has their calendars there revoked and never synced again", async () => {
    const [leaver, removed] = await Promise.all(["Lea", "Rex"].map((name) => signUp(atrium, name)))
    const team = await workspaceWith(atrium, admin, [leaver, removed])
    const connectionOf = async (user: User, name: string) => {
      const connected = await connectCalendar(user, name, team)
      expect(connected.status, connected.text).toBe(201)
      return connected.body.id as string
    }
    const statusOf = async (user: User, connectionId: string) => {
      const listed = await atrium.request("GET", "/hub/v1/calendar/syncs", { token: user.token })
      expect(listed.status, listed.text).toBe(200)
      return (listed.body.items as Array<Record<string, any>>).find((item) => item.connectionId === connectionId)
    }
    const departed = [
      { user: leaver, connectionId: await connectionOf(leaver, "Lea"), path: `/calendar/${leaver.userId}/basic.ics` },
      { user: removed, connectionId: await connectionOf(removed, "Rex"), path: `/calendar/${removed.userId}/basic.ics` }
    ]
    // The loop syncs both at once (their connections wake it).
    for (const { user, connectionId } of departed)
      expect(await settled(() => statusOf(user, connectionId))).toMatchObject({ state: "synced" })
    expect(await titlesOf(leaver)).toEqual(["Lea standup 0", "Lea standup 1", "Lea standup 2"])
    expect(await titlesOf(removed)).toEqual(["Rex standup 0", "Rex standup 1", "Rex standup 2"])

    // One leaves, the other is removed by the admin.
    const left = await atrium.request("POST", `/pm/v1/workspaces/${team}/leave`, { token: leaver.token })
    expect(left.status, left.text).toBeLessThan(300)
    const dropped = await atrium.request("DELETE", `/hub/v1/workspaces/${team}/members/${removed.userId}`, { token: admin.token })
    expect(dropped.status, dropped.text).toBeLessThan(300)
    const fetchedBefore = departed.map(({ path }) => fetches.get(path))

    // The loop's next turn (woken by another connection) revokes their calendars and takes their events out.
    const woken = await connectionOf(admin, "Ada")
    const deadline = Date.now() + 60_000
    const ids = departed.map(({ connectionId }) => connectionId)
    while ((await atrium.sql(`SELECT 1 FROM hub_calendar_sync WHERE connection_id = ANY($1)`, [ids])).length > 0) {
      if (Date.now() > deadline) throw new Error("the departed members' calendars were not forgotten")
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const connections = await atrium.sql<{ revoked: boolean; token: string }>(
      `SELECT revoked_at IS NOT NULL AS revoked, token_ciphertext AS token FROM hub_connections WHERE id = ANY($1)`,
      [ids]
    )
    expect(connections).toEqual([
      { revoked: true, token: "" },
      { revoked: true, token: "" }
    ])
    expect(await titlesOf(leaver)).toEqual([])
    expect(await titlesOf(removed)).toEqual([])
    for (const { user, connectionId } of departed) expect(await statusOf(user, connectionId)).toBeUndefined()

    // Neither a sync on demand nor later turns of the loop read their suites again.
    for (const { connectionId } of departed) {
      const refused = await atrium.run(Effect.flip(syncCalendarNow(connectionId)))
      expect(refused.message).toMatch(/not a synced calendar/)
    }
    await atrium.run(syncCalendarNow(woken))
    const another = await connectionOf(admin, "Ada")
    expect(await settled(() => statusOf(admin, another))).toMatchObject({ state: "synced" })
    expect(departed.map(({ path }) => fetches.get(path))).toEqual(fetchedBefore)
    // The admin, still a member, keeps theirs.
    expect(await statusOf(admin, woken)).toMatchObject({ state: "synced" })
  })

  it("a member may start an OAuth flow for their calendar (not for a workspace system)", async () => {
    const calendar = await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/oauth/calendar/authorize`, {
      token: member.token,
      body: {}
    })
    // Past the role check: the server has no OAuth client for calendars configured.
    expect(calendar.status, calendar.text).toBe(409)
    const tracker = await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/oauth/tracker/authorize`, {
      token: member.token,
      body: {}
    })
    expect(tracker.status, tracker.text).toBe(403)
  })
})
