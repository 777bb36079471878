/**
 * Calendars synced from the suites, against local fakes speaking each
 * protocol: an iCalendar address (a weekly series across a DST change with a
 * moved occurrence and an EXDATE, conditional re-fetch), Google Calendar
 * (pages, syncToken increments, a 410 that forces a full resync) and
 * Microsoft Graph (nextLink/deltaLink, removed events, 410). Synced meetings
 * keep their prompts over re-syncs, and recording bots follow the owner's
 * `autoJoin` choice: scheduled, moved, called off.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { occurrencePrompts } from "../../actors/hub/calendar/OccurrencePrompts.ts"
import { syncCalendarNow } from "../../actors/hub/calendar/sync/CalendarSync.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"
import { fakeServer, json, type User, workspaceWith } from "./support/calls.ts"

const envNames = [
  "ATRIUM_ALLOW_PRIVATE_URLS",
  "HUB_BOT_PROVIDER_URL",
  "HUB_BOT_PROVIDER_API_KEY",
  "HUB_CALENDAR_POLL_MS",
  "HUB_CALENDAR_SYNC_MINUTES",
  "HUB_CALENDAR_WINDOW_DAYS"
]
const saved = Object.fromEntries(envNames.map((name) => [name, process.env[name]]))

const DAY = 86_400_000
const HOUR = 3_600_000
/** Next year's last Sunday of March: Europe/Berlin moves from +01:00 to +02:00 that night. */
const year = new Date().getUTCFullYear() + 1
const dst = (() => {
  const d = new Date(Date.UTC(year, 2, 31))
  return Date.UTC(year, 2, 31 - d.getUTCDay())
})()
const day = (offset: number) => new Date(dst + offset * DAY)
const ymd = (offset: number) => day(offset).toISOString().slice(0, 10).replace(/-/g, "")
const at = (offset: number, hourUtc: number) => new Date(dst + offset * DAY + hourUtc * HOUR).toISOString()
const stamp = (iso: string) => iso.replace(/[-:]/g, "").replace(/\.\d{3}/, "")

const VTIMEZONE = `BEGIN:VTIMEZONE
TZID:Europe/Berlin
BEGIN:DAYLIGHT
TZOFFSETFROM:+0100
TZOFFSETTO:+0200
TZNAME:CEST
DTSTART:19700329T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:+0200
TZOFFSETTO:+0100
TZNAME:CET
DTSTART:19701025T030000
RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU
END:STANDARD
END:VTIMEZONE`

/** A weekly Tuesday 9:00 Berlin series across the DST change: the second occurrence moved, the fourth cancelled. */
const icsOf = (description: string) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Atrium test//EN",
    VTIMEZONE,
    "BEGIN:VEVENT",
    "UID:weekly-review@example.com",
    `DTSTART;TZID=Europe/Berlin:${ymd(-12)}T090000`,
    `DTEND;TZID=Europe/Berlin:${ymd(-12)}T093000`,
    "RRULE:FREQ=WEEKLY;COUNT=6",
    `EXDATE;TZID=Europe/Berlin:${ymd(9)}T090000`,
    "SUMMARY:Weekly review",
    `DESCRIPTION:${description}`,
    "LOCATION:https://meet.example.com/weekly",
    "ORGANIZER:mailto:someone@example.com",
    "END:VEVENT",
    "BEGIN:VEVENT",
    "UID:weekly-review@example.com",
    `RECURRENCE-ID;TZID=Europe/Berlin:${ymd(-5)}T090000`,
    `DTSTART;TZID=Europe/Berlin:${ymd(-4)}T140000`,
    `DTEND;TZID=Europe/Berlin:${ymd(-4)}T143000`,
    "SUMMARY:Weekly review (moved)",
    "END:VEVENT",
    "END:VCALENDAR"
  ].join("\r\n")

let atrium: TestServer
let alice: User
let bob: User
let workspaceId: string
let ics = { text: icsOf("Agenda v1"), etag: '"v1"' }
const bots: Array<{ id: string; join_at: string | undefined; meeting_url: string }> = []
const stopped: Array<string> = []

// Google Calendar: every change bumps the version; a sync token is the version it was issued at.
type Json = Record<string, any>
const google = { events: new Map<string, { item: Json; version: number }>(), version: 1, gone: false }
const googleChange = (item: Json) => google.events.set(item.id, { item, version: ++google.version })
// Microsoft Graph: the same, with removals kept as tombstones.
const graph = { items: new Map<string, { item: Json; version: number }>(), version: 1, gone: false }
const graphChange = (item: Json) => graph.items.set(item.id, { item, version: ++graph.version })

let icsServer: Awaited<ReturnType<typeof fakeServer>>
let googleServer: Awaited<ReturnType<typeof fakeServer>>
let graphServer: Awaited<ReturnType<typeof fakeServer>>
let provider: Awaited<ReturnType<typeof fakeServer>>
const soon = (hours: number) => new Date(Math.ceil((Date.now() + hours * HOUR) / 60_000) * 60_000).toISOString()
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString()

beforeAll(async () => {
  icsServer = await fakeServer((request, response) => {
    if (request.url !== "/calendar/private-7f3a/basic.ics") return json(response, 404, {})
    if (request.headers["if-none-match"] === ics.etag) {
      response.writeHead(304)
      return response.end()
    }
    response.writeHead(200, { "content-type": "text/calendar", etag: ics.etag })
    response.end(ics.text)
  })
  googleServer = await fakeServer((request, response) => {
    if (request.headers.authorization !== "Bearer google-token") return json(response, 401, {})
    const url = new URL(request.url, "http://x")
    if (url.pathname !== "/calendar/v3/calendars/primary/events" || url.searchParams.get("singleEvents") !== "false")
      return json(response, 404, {})
    const token = url.searchParams.get("syncToken")
    if (token !== null && google.gone) {
      google.gone = false
      return json(response, 410, { error: { code: 410, message: "Sync token is no longer valid, a full sync is required." } })
    }
    const since = token === null ? 0 : Number(token.slice(1))
    const all = [...google.events.values()]
      .filter((entry) => entry.version > since && (token !== null || entry.item.status !== "cancelled" || entry.item.recurringEventId))
      .map((entry) => entry.item)
    // Two per page: the client must follow pageToken.
    const offset = Number(url.searchParams.get("pageToken") ?? 0)
    const page = all.slice(offset, offset + 2)
    const more = offset + 2 < all.length
    json(response, 200, {
      kind: "calendar#events",
      items: page,
      ...(more ? { nextPageToken: String(offset + 2) } : { nextSyncToken: `v${google.version}` })
    })
  })
  graphServer = await fakeServer((request, response) => {
    if (request.headers.authorization !== "Bearer graph-token") return json(response, 401, {})
    const url = new URL(request.url, "http://x")
    if (url.pathname !== "/v1.0/me/calendarView/delta") return json(response, 404, {})
    const deltaToken = url.searchParams.get("$deltatoken")
    if (deltaToken !== null && graph.gone) {
      graph.gone = false
      return json(response, 410, { error: { code: "SyncStateNotFound" } })
    }
    const base = `${graphServer.url}/v1.0/me/calendarView/delta`
    const skip = url.searchParams.get("$skiptoken")
    const since = deltaToken !== null ? Number(deltaToken.slice(1)) : skip !== null ? Number(skip.split("-")[1]) : 0
    const full = deltaToken === null && skip === null
    if (full && (!url.searchParams.get("startDateTime") || !url.searchParams.get("endDateTime"))) return json(response, 400, {})
    const changed = [...graph.items.values()]
      .filter((entry) => entry.version > since && (since > 0 || entry.item["@removed"] === undefined))
      .map((entry) => entry.item)
    // A first round comes in two pages (nextLink), then the deltaLink.
    if (full) return json(response, 200, { value: changed.slice(0, 2), "@odata.nextLink": `${base}?$skiptoken=p-${since}-2` })
    const rest = skip !== null ? changed.slice(2) : changed
    json(response, 200, { value: rest, "@odata.deltaLink": `${base}?$deltatoken=v${graph.version}` })
  })
  provider = await fakeServer((request, response) => {
    if (request.headers.authorization !== "Token bot-key") return json(response, 401, {})
    if (request.method === "POST" && request.url === "/api/v1/bot/") {
      const id = `bot_${bots.length + 1}`
      bots.push({ id, join_at: request.body.join_at, meeting_url: request.body.meeting_url })
      return json(response, 201, { id })
    }
    if (request.method === "DELETE") {
      stopped.push(request.url.split("/")[4]!)
      return json(response, 200, {})
    }
    json(response, 404, {})
  })
  Object.assign(process.env, {
    ATRIUM_ALLOW_PRIVATE_URLS: "1",
    HUB_BOT_PROVIDER_URL: provider.url,
    HUB_BOT_PROVIDER_API_KEY: "bot-key",
    HUB_CALENDAR_POLL_MS: "100",
    HUB_CALENDAR_SYNC_MINUTES: "600",
    HUB_CALENDAR_WINDOW_DAYS: "800"
  })
  atrium = await startAtrium()
  ;[alice, bob] = await Promise.all(["Alice", "Bob"].map((name) => signUp(atrium, name)))
  workspaceId = await workspaceWith(atrium, alice, [bob])
}, 120_000)

afterAll(async () => {
  await atrium?.close()
  await Promise.all([icsServer, googleServer, graphServer, provider].map((server) => server?.close()))
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

const connect = async (body: Record<string, unknown>) => {
  const created = await atrium.request("POST", `/hub/v1/workspaces/${workspaceId}/integrations`, { token: alice.token, body })
  expect(created.status, created.text).toBe(201)
  return created.body.id as string
}

/** The background loop's first sync of a new calendar connection. */
const firstSync = async (connectionId: string) =>
  expect
    .poll(
      async () =>
        (await atrium.sql(`SELECT synced_at FROM hub_calendar_sync WHERE connection_id = $1`, [connectionId]))[0]?.synced_at ?? null,
      { timeout: 20_000, interval: 100 }
    )
    .not.toBeNull()

const sync = (connectionId: string) => atrium.run(syncCalendarNow(connectionId))

const list = async (token: string, from: string, to: string) => {
  const listed = await atrium.request("GET", `/hub/v1/calendar/events?from=${from}&to=${to}`, { token })
  expect(listed.status, listed.text).toBe(200)
  return listed.body.items as Array<Json>
}

const botsOf = async () => {
  const listed = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/videomeet/bots`, { token: alice.token })
  expect(listed.status, listed.text).toBe(200)
  return listed.body.items as Array<Json>
}

describe("an iCalendar subscription", () => {
  it("syncs a weekly series across a DST change with a moved and a cancelled occurrence; prompts survive re-syncs", async () => {
    // The secret address is the connection's token: shown to nobody.
    const connectionId = await connect({
      vendor: "calendar",
      name: "My calendar (ICS)",
      baseUrl: icsServer.url,
      token: `${icsServer.url}/calendar/private-7f3a/basic.ics`,
      settings: { calendarProtocol: "ics" }
    })
    await firstSync(connectionId)
    const window = [at(-20, 0), at(30, 0)] as const
    const items = (await list(alice.token, ...window)).filter((o) => o.title === "Weekly review")
    // 9:00 in Berlin is 08:00Z before the change and 07:00Z after it; the 2nd moved to Wednesday 14:00, the 4th cancelled.
    expect(items.map((o) => o.start)).toEqual([at(-12, 8), at(-4, 13), at(2, 7), at(16, 7), at(23, 7)])
    const eventId = items[0]!.eventId
    expect(items.map((o) => o.occurrenceId)).toEqual(
      [at(-12, 8), at(-5, 8), at(2, 7), at(16, 7), at(23, 7)].map((start) => `${eventId}_${stamp(start)}`)
    )
    expect(items[1]).toMatchObject({ end: at(-4, 13.5), recurring: true, location: "https://meet.example.com/weekly" })
    const cancelled = await atrium.request("GET", `/hub/v1/calendar/events/${eventId}_${stamp(at(9, 7))}`, { token: alice.token })
    expect(cancelled.status).toBe(404)
    // Only Alice's calendar has it; and it is the suite's to change.
    expect((await list(bob.token, ...window)).filter((o) => o.title === "Weekly review")).toEqual([])
    const edit = await atrium.request("PATCH", `/hub/v1/calendar/series/${eventId}`, { token: alice.token, body: { title: "Mine" } })
    expect(edit.status).toBe(409)

    const moved = items[1]!.occurrenceId as string
    const series = await atrium.request("PUT", `/hub/v1/calendar/events/${items[0]!.occurrenceId}/series-prompt`, {
      token: alice.token,
      body: { prompt: "Track decisions" }
    })
    expect(series.status, series.text).toBe(200)
    const own = await atrium.request("PUT", `/hub/v1/calendar/events/${moved}/occurrence-prompt`, {
      token: alice.token,
      body: { prompt: "Focus on the launch" }
    })
    expect(own.status, own.text).toBe(200)

    // Unchanged: the conditional fetch answers 304 and nothing moves.
    const again = await sync(connectionId)
    expect(again).toMatchObject({ unchanged: true, added: 0, changed: 0, removed: 0 })
    expect(icsServer.requests.at(-1)!.headers["if-none-match"]).toBe('"v1"')

    // The suite changes the series: the same event and occurrences, prompts still attached.
    ics = { text: icsOf("Agenda v2"), etag: '"v2"' }
    const changed = await sync(connectionId)
    expect(changed).toMatchObject({ unchanged: false, added: 0, changed: 1, removed: 0 })
    const after = await atrium.request("GET", `/hub/v1/calendar/events/${moved}`, { token: alice.token })
    expect(after.body).toMatchObject({
      start: at(-4, 13),
      description: "Agenda v2",
      seriesPrompt: "Track decisions",
      occurrencePrompt: "Focus on the launch",
      effectivePrompt: "series custom prompt: Track decisions\noccurrence custom prompt: Focus on the launch"
    })
    // A recording of the moved occurrence is generated with the combined prompt.
    const prompts = await atrium.run(occurrencePrompts(moved, [alice.userId]))
    expect(prompts.get(alice.userId)).toBe("series custom prompt: Track decisions\noccurrence custom prompt: Focus on the launch")
    const listedAgain = (await list(alice.token, ...window)).filter((o) => o.title === "Weekly review")
    expect(listedAgain.map((o) => o.occurrenceId)).toEqual(items.map((o) => o.occurrenceId))
    // The connection list never shows the secret address.
    const connections = await atrium.request("GET", `/hub/v1/workspaces/${workspaceId}/integrations`, { token: alice.token })
    expect(connections.text).not.toContain("private-7f3a")
  })
})

describe("Google Calendar", () => {
  it("syncs pages, then increments by syncToken (new, moved, cancelled), and a 410 resyncs fully without duplicates; bots follow", async () => {
    const start = at(-12, 8)
    googleChange({
      id: "gseries",
      status: "confirmed",
      summary: "Team sync",
      start: { dateTime: start, timeZone: "Europe/Berlin" },
      end: { dateTime: plus(start, HOUR), timeZone: "Europe/Berlin" },
      recurrence: ["RRULE:FREQ=WEEKLY;COUNT=4"],
      hangoutLink: "https://meet.google.com/abc-defg-hij",
      organizer: { email: alice.email, self: true }
    })
    googleChange({
      id: "glunch",
      status: "confirmed",
      summary: "Lunch",
      start: { dateTime: at(-10, 11) },
      end: { dateTime: at(-10, 12) },
      organizer: { email: "someone@example.com" }
    })
    const soonStart = soon(3)
    googleChange({
      id: "gsoon",
      status: "confirmed",
      summary: "Customer call",
      start: { dateTime: soonStart },
      end: { dateTime: plus(soonStart, HOUR) },
      hangoutLink: "https://meet.google.com/cus-tome-rrr",
      attendees: [{ email: alice.email }, { email: bob.email }],
      organizer: { email: alice.email, self: true }
    })
    const laterStart = soon(5)
    googleChange({
      id: "glater",
      status: "confirmed",
      summary: "Design review",
      start: { dateTime: laterStart },
      end: { dateTime: plus(laterStart, HOUR) },
      hangoutLink: "https://meet.google.com/des-ignr-evw",
      organizer: { email: alice.email, self: true }
    })
    const connectionId = await connect({
      vendor: "calendar",
      name: "Google",
      baseUrl: googleServer.url,
      token: "google-token",
      settings: { calendarProtocol: "google" }
    })
    await firstSync(connectionId)
    const listed = googleServer.requests.map((r) => new URL(r.url, "http://x").searchParams)
    expect(listed.some((q) => q.get("pageToken") === "2")).toBe(true)
    const window = [at(-20, 0), at(30, 0)] as const
    const teamSync = (await list(alice.token, ...window)).filter((o) => o.title === "Team sync")
    // Wall-clock 9:00 Berlin across the DST change.
    expect(teamSync.map((o) => o.start)).toEqual([at(-12, 8), at(-5, 8), at(2, 7), at(9, 7)])
    // autoJoin defaults to "organized": Alice's two meetings with a video link get a bot each, joining at their start.
    expect(bots.map((b) => [b.meeting_url, b.join_at])).toEqual([
      ["https://meet.google.com/cus-tome-rrr", soonStart],
      ["https://meet.google.com/des-ignr-evw", laterStart]
    ])

    // Increment: a new meeting, one moved, one cancelled, one occurrence of the series cancelled.
    const before = googleServer.requests.length
    googleChange({ id: "gplan", status: "confirmed", summary: "Planning", start: { dateTime: at(-9, 9) }, end: { dateTime: at(-9, 10) } })
    googleChange({
      ...google.events.get("gsoon")!.item,
      start: { dateTime: plus(soonStart, HOUR) },
      end: { dateTime: plus(soonStart, 2 * HOUR) }
    })
    googleChange({ id: "glater", status: "cancelled" })
    googleChange({
      id: `gseries_${stamp(at(2, 7))}`,
      status: "cancelled",
      recurringEventId: "gseries",
      originalStartTime: { dateTime: at(2, 7), timeZone: "Europe/Berlin" }
    })
    const increment = await sync(connectionId)
    expect(increment).toMatchObject({ full: false, added: 1, changed: 2, removed: 1, botsScheduled: 1, botsCancelled: 2 })
    const asked = googleServer.requests.slice(before).map((r) => new URL(r.url, "http://x").searchParams)
    expect(asked.every((q) => q.get("syncToken") !== null)).toBe(true)
    const everything = async () =>
      [...(await list(alice.token, ...window)), ...(await list(alice.token, soon(-24), soon(48)))].map((o) => o.title)
    const titles = await everything()
    expect(titles.filter((t) => t === "Planning")).toHaveLength(1)
    expect(titles).not.toContain("Design review")
    expect(titles.filter((t) => t === "Team sync")).toHaveLength(3)
    // The moved meeting's bot was called off and sent again for the new time; the cancelled one's called off.
    expect(stopped).toEqual(["bot_1", "bot_2"])
    expect(bots.at(-1)).toMatchObject({ meeting_url: "https://meet.google.com/cus-tome-rrr", join_at: plus(soonStart, HOUR) })
    const waiting = (await botsOf()).filter((bot) => bot.status === "scheduled")
    expect(waiting.map((bot) => bot.joinAt)).toEqual([plus(soonStart, HOUR)])

    // The token expired: 410, then a full listing replaces what was known, with no duplicates.
    google.gone = true
    const resync = await sync(connectionId)
    expect(resync).toMatchObject({ full: true, added: 0, changed: 0, removed: 0, botsScheduled: 0, botsCancelled: 0 })
    expect((await everything()).sort()).toEqual(titles.sort())
  })
})

describe("Microsoft Graph", () => {
  it("follows nextLink to a deltaLink, applies removed and changed events, and a 410 resyncs fully; bots as chosen", async () => {
    const occurrence = (n: number, extra: Json = {}) => ({
      id: `occ-${n}`,
      type: "occurrence",
      seriesMasterId: "master-1",
      subject: "1:1",
      originalStart: at(-12 + 7 * n, 10),
      start: { dateTime: at(-12 + 7 * n, 10).replace("Z", "0000"), timeZone: "UTC" },
      end: { dateTime: at(-12 + 7 * n, 10.5).replace("Z", "0000"), timeZone: "UTC" },
      isOrganizer: true,
      onlineMeeting: { joinUrl: "https://teams.microsoft.com/l/meetup-join/one-on-one" },
      ...extra
    })
    graphChange(occurrence(0))
    graphChange(
      occurrence(1, {
        type: "exception",
        start: { dateTime: at(-4, 15), timeZone: "UTC" },
        end: { dateTime: at(-4, 15.5), timeZone: "UTC" }
      })
    )
    graphChange(occurrence(2))
    const soonStart = soon(4)
    graphChange({
      id: "single-1",
      type: "singleInstance",
      subject: "Vendor demo",
      start: { dateTime: soonStart.replace("Z", ""), timeZone: "UTC" },
      end: { dateTime: plus(soonStart, HOUR).replace("Z", ""), timeZone: "UTC" },
      isOrganizer: false,
      organizer: { emailAddress: { address: "vendor@example.com" } },
      attendees: [{ emailAddress: { address: alice.email } }],
      onlineMeeting: { joinUrl: "https://teams.microsoft.com/l/meetup-join/demo" }
    })
    const botsBefore = bots.length
    const connectionId = await connect({
      vendor: "calendar",
      name: "Outlook",
      baseUrl: `${graphServer.url}/v1.0`,
      token: "graph-token",
      settings: { calendarProtocol: "microsoft" }
    })
    await firstSync(connectionId)
    expect(graphServer.requests.some((r) => r.url.includes("$skiptoken="))).toBe(true)
    expect(graphServer.requests[0]!.headers.prefer).toContain('outlook.timezone="UTC"')
    const window = [at(-20, 0), at(30, 0)] as const
    const series = (await list(alice.token, ...window)).filter((o) => o.title === "1:1")
    expect(series.map((o) => o.start)).toEqual([at(-12, 10), at(-4, 15), at(2, 10)])
    expect(series[1]!.occurrenceId).toBe(`${series[0]!.eventId}_${stamp(at(-5, 10))}`)
    // Alice does not organize the demo: with autoJoin "organized" no bot goes to it.
    expect(bots).toHaveLength(botsBefore)
    const demo = (await list(alice.token, plus(soonStart, -HOUR), plus(soonStart, HOUR))).find((o) => o.title === "Vendor demo")
    expect(demo).toBeDefined()

    // Choosing "all with a video link" sends one at the next sync; "none" calls it off.
    const all = await atrium.request("PATCH", "/hub/v1/users/me/settings/recording", { token: alice.token, body: { autoJoin: "all" } })
    expect(all.status, all.text).toBe(200)
    expect(await sync(connectionId)).toMatchObject({ unchanged: false, added: 0, changed: 0, removed: 0, botsScheduled: 1 })
    expect(bots.at(-1)).toMatchObject({ meeting_url: "https://teams.microsoft.com/l/meetup-join/demo", join_at: soonStart })
    const demoBot = bots.at(-1)!.id

    // Delta: the demo removed, a new meeting, an occurrence moved.
    graphChange({ id: "single-1", "@removed": { reason: "deleted" } })
    graphChange({
      id: "single-2",
      type: "singleInstance",
      subject: "Retro",
      start: { dateTime: at(-3, 16), timeZone: "UTC" },
      end: { dateTime: at(-3, 17), timeZone: "UTC" },
      isOrganizer: true
    })
    graphChange(
      occurrence(2, { type: "exception", start: { dateTime: at(3, 9), timeZone: "UTC" }, end: { dateTime: at(3, 9.5), timeZone: "UTC" } })
    )
    const before = graphServer.requests.length
    const delta = await sync(connectionId)
    expect(delta).toMatchObject({ full: false, added: 1, changed: 1, removed: 1, botsCancelled: 1 })
    expect(graphServer.requests.slice(before).every((r) => r.url.includes("$deltatoken="))).toBe(true)
    expect(stopped.at(-1)).toBe(demoBot)
    const afterDelta = await list(alice.token, ...window)
    expect(afterDelta.filter((o) => o.title === "1:1").map((o) => o.start)).toEqual([at(-12, 10), at(-4, 15), at(3, 9)])
    expect(afterDelta.map((o) => o.title)).toContain("Retro")
    expect(afterDelta.map((o) => o.title)).not.toContain("Vendor demo")

    graph.gone = true
    const resync = await sync(connectionId)
    expect(resync).toMatchObject({ full: true, added: 0, changed: 0, removed: 0 })
    const afterResync = await list(alice.token, ...window)
    expect(afterResync.map((o) => o.occurrenceId).sort()).toEqual(afterDelta.map((o) => o.occurrenceId).sort())

    // Disconnecting the calendar takes its meetings out of Alice's calendar at the next turn.
    const none = await atrium.request("PATCH", "/hub/v1/users/me/settings/recording", { token: alice.token, body: { autoJoin: "none" } })
    expect(none.status).toBe(200)
    const revoked = await atrium.request("DELETE", `/hub/v1/workspaces/${workspaceId}/integrations/${connectionId}`, { token: alice.token })
    expect(revoked.status, revoked.text).toBe(204)
    await atrium.sql(`UPDATE hub_calendar_sync SET next_sync_at = now() WHERE connection_id = $1`, [connectionId])
    await expect
      .poll(async () => (await list(alice.token, ...window)).filter((o) => o.title === "1:1" || o.title === "Retro").length, {
        timeout: 20_000,
        interval: 100
      })
      .toBe(0)
  })
})
