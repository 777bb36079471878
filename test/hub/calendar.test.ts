/**
 * The calendar-events service through the facade: recurrence expansion,
 * stable occurrence ids, actor scoping (another user's event is 404),
 * attendees' own calendars and prompts, and the exact prompt combination.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { occurrencePrompts } from "../../actors/hub/calendar/OccurrencePrompts.ts"
import { signUp, startAtrium, type TestServer } from "../support/atrium.ts"

let atrium: TestServer
beforeAll(async () => {
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const create = async (token: string, body: Record<string, unknown>) => {
  const created = await atrium.request("POST", "/hub/v1/calendar/events", { token, body })
  expect(created.status, created.text).toBe(201)
  return created.body
}
const list = async (token: string, from: string, to: string) => {
  const listed = await atrium.request("GET", `/hub/v1/calendar/events?from=${from}&to=${to}`, { token })
  expect(listed.status, listed.text).toBe(200)
  return listed.body.items as Array<Record<string, any>>
}

describe("calendar events and recurrence", () => {
  it("expands weekly BYDAY with COUNT, with stable occurrence ids", async () => {
    const alice = await signUp(atrium, "Alice")
    const event = await create(alice.token, {
      title: "Standup",
      start: "2026-12-01T09:00:00Z",
      end: "2026-12-01T09:15:00Z",
      recurrence: "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=5"
    })
    expect(event.firstOccurrenceId).toBe(`${event.id}_20261201T090000Z`)
    const items = await list(alice.token, "2026-11-01T00:00:00Z", "2027-02-01T00:00:00Z")
    expect(items.map((o) => o.start)).toEqual([
      "2026-12-01T09:00:00.000Z",
      "2026-12-03T09:00:00.000Z",
      "2026-12-08T09:00:00.000Z",
      "2026-12-10T09:00:00.000Z",
      "2026-12-15T09:00:00.000Z"
    ])
    expect(items[1]).toMatchObject({ occurrenceId: `${event.id}_20261203T090000Z`, end: "2026-12-03T09:15:00.000Z", recurring: true })
    // A narrower window names the same occurrence the same way.
    const again = await list(alice.token, "2026-12-03T00:00:00Z", "2026-12-04T00:00:00Z")
    expect(again.map((o) => o.occurrenceId)).toEqual([items[1]!.occurrenceId])
  })

  it("expands monthly rules by ordinal weekday and by day of month, UNTIL inclusive, INTERVAL", async () => {
    const alice = await signUp(atrium, "Alice")
    await create(alice.token, {
      title: "Board review",
      start: "2027-01-29T16:00:00Z",
      end: "2027-01-29T17:00:00Z",
      recurrence: "FREQ=MONTHLY;BYDAY=-1FR;UNTIL=20270430"
    })
    await create(alice.token, {
      title: "Pay day",
      start: "2027-01-31T08:00:00Z",
      end: "2027-01-31T08:30:00Z",
      recurrence: "FREQ=MONTHLY;COUNT=3"
    })
    await create(alice.token, {
      title: "Every other day",
      start: "2027-06-01T07:00:00Z",
      end: "2027-06-01T07:10:00Z",
      recurrence: "FREQ=DAILY;INTERVAL=2;COUNT=3"
    })
    const items = await list(alice.token, "2027-01-01T00:00:00Z", "2027-12-31T00:00:00Z")
    const starts = (title: string) => items.filter((o) => o.title === title).map((o) => o.start.slice(0, 10))
    expect(starts("Board review")).toEqual(["2027-01-29", "2027-02-26", "2027-03-26", "2027-04-30"])
    // January 31st, then the next months that have a 31st (February has none): March, May.
    expect(starts("Pay day")).toEqual(["2027-01-31", "2027-03-31", "2027-05-31"])
    expect(starts("Every other day")).toEqual(["2027-06-01", "2027-06-03", "2027-06-05"])
  })

  it("reads the rule in the event's time zone, by default the caller's hub settings' one", async () => {
    const alice = await signUp(atrium, "Alice")
    await atrium.request("PATCH", "/hub/v1/users/me/settings", { token: alice.token, body: { timezone: "Europe/Berlin" } })
    const event = await create(alice.token, {
      title: "Monday 9:00 Berlin",
      start: "2027-03-22T09:00:00+01:00",
      end: "2027-03-22T09:30:00+01:00",
      recurrence: "FREQ=WEEKLY;COUNT=2"
    })
    expect(event.timeZone).toBe("Europe/Berlin")
    const items = await list(alice.token, "2027-03-20T00:00:00Z", "2027-04-01T00:00:00Z")
    expect(items.map((o) => [o.start, o.end, o.occurrenceId.slice(-16)])).toEqual([
      ["2027-03-22T08:00:00.000Z", "2027-03-22T08:30:00.000Z", "20270322T080000Z"],
      ["2027-03-29T07:00:00.000Z", "2027-03-29T07:30:00.000Z", "20270329T070000Z"]
    ])
    const utc = await atrium.request("PATCH", `/hub/v1/calendar/series/${event.id}`, { token: alice.token, body: { timeZone: "UTC" } })
    expect(utc.body.timeZone).toBe("UTC")
    expect((await list(alice.token, "2027-03-20T00:00:00Z", "2027-04-01T00:00:00Z")).map((o) => o.start)).toEqual([
      "2027-03-22T08:00:00.000Z",
      "2027-03-29T08:00:00.000Z"
    ])
    const bad = await atrium.request("POST", "/hub/v1/calendar/events", {
      token: alice.token,
      body: { title: "x", start: "2027-03-22T09:00:00Z", end: "2027-03-22T10:00:00Z", timeZone: "Mars/Olympus" }
    })
    expect(bad.body.error.details[0].path).toBe("body.timeZone")
  })

  it("refuses unsupported rules and inverted times, naming the field", async () => {
    const alice = await signUp(atrium, "Alice")
    const base = { title: "x", start: "2026-12-01T09:00:00Z", end: "2026-12-01T10:00:00Z" }
    for (const recurrence of ["FREQ=YEARLY", "FREQ=WEEKLY;COUNT=2;UNTIL=20270101", "FREQ=WEEKLY;BYDAY=XX", "FREQ=DAILY;BYMONTH=1"]) {
      const refused = await atrium.request("POST", "/hub/v1/calendar/events", { token: alice.token, body: { ...base, recurrence } })
      expect(refused.status, recurrence).toBe(400)
      expect(refused.body.error.details[0].path).toBe("body.recurrence")
    }
    const inverted = await atrium.request("POST", "/hub/v1/calendar/events", {
      token: alice.token,
      body: { ...base, end: "2026-12-01T08:00:00Z" }
    })
    expect(inverted.status).toBe(400)
    expect(inverted.body.error.details[0].path).toBe("body.end")
    const wide = await atrium.request("GET", "/hub/v1/calendar/events?from=2026-01-01T00:00:00Z&to=2028-01-01T00:00:00Z", {
      token: alice.token
    })
    expect(wide.status).toBe(400)
  })

  it("is actor-scoped: another user's event is 404 for reading and every change", async () => {
    const alice = await signUp(atrium, "Alice")
    const mallory = await signUp(atrium, "Mallory")
    const event = await create(alice.token, { title: "1:1", start: "2026-12-02T10:00:00Z", end: "2026-12-02T10:30:00Z" })
    const occurrence = event.firstOccurrenceId
    expect((await atrium.request("GET", `/hub/v1/calendar/events/${occurrence}`, { token: mallory.token })).status).toBe(404)
    for (const kind of ["series-prompt", "occurrence-prompt"]) {
      const put = await atrium.request("PUT", `/hub/v1/calendar/events/${occurrence}/${kind}`, {
        token: mallory.token,
        body: { prompt: "x" }
      })
      expect(put.status).toBe(404)
    }
    expect(
      (await atrium.request("PATCH", `/hub/v1/calendar/series/${event.id}`, { token: mallory.token, body: { title: "x" } })).status
    ).toBe(404)
    expect((await atrium.request("DELETE", `/hub/v1/calendar/series/${event.id}`, { token: mallory.token })).status).toBe(404)
    expect((await atrium.request("DELETE", `/hub/v1/calendar/events/${occurrence}`, { token: mallory.token })).status).toBe(404)
    expect(await list(mallory.token, "2026-12-01T00:00:00Z", "2026-12-31T00:00:00Z")).toEqual([])
    // A date that is not an occurrence of the series is 404 too, even for the organizer.
    expect((await atrium.request("GET", `/hub/v1/calendar/events/${event.id}_20261203T100000Z`, { token: alice.token })).status).toBe(404)
    expect((await atrium.request("GET", `/hub/v1/calendar/events/${occurrence}`, { token: alice.token })).status).toBe(200)
  })
})

describe("prompts", () => {
  it("combines series and occurrence prompts exactly, per user, per occurrence", async () => {
    const alice = await signUp(atrium, "Alice")
    const bob = await signUp(atrium, "Bob")
    const event = await create(alice.token, {
      title: "Planning",
      start: "2026-12-07T14:00:00Z",
      end: "2026-12-07T15:00:00Z",
      recurrence: "FREQ=WEEKLY;COUNT=4",
      attendeeEmails: [bob.email.toUpperCase(), "guest@outside.example"]
    })
    const first = event.firstOccurrenceId as string
    const second = `${event.id}_20261214T140000Z`
    const series = await atrium.request("PUT", `/hub/v1/calendar/events/${first}/series-prompt`, {
      token: alice.token,
      body: { prompt: "Track decisions." }
    })
    expect(series.status, series.text).toBe(200)
    expect(series.body).toMatchObject({ seriesPrompt: "Track decisions.", occurrencePrompt: null, effectivePrompt: "Track decisions." })
    const occ = await atrium.request("PUT", `/hub/v1/calendar/events/${second}/occurrence-prompt`, {
      token: alice.token,
      body: { prompt: "Budget only." }
    })
    expect(occ.body.effectivePrompt).toBe("series custom prompt: Track decisions.\noccurrence custom prompt: Budget only.")
    // The series prompt applies to every occurrence; the occurrence prompt to its date only.
    const firstRead = await atrium.request("GET", `/hub/v1/calendar/events/${first}`, { token: alice.token })
    expect(firstRead.body).toMatchObject({ seriesPrompt: "Track decisions.", occurrencePrompt: null, effectivePrompt: "Track decisions." })

    // Bob is an attendee: the event is in his calendar, with his own (empty) prompts.
    const bobsView = await atrium.request("GET", `/hub/v1/calendar/events/${second}`, { token: bob.token })
    expect(bobsView.status).toBe(200)
    expect(bobsView.body).toMatchObject({ isOrganizer: false, seriesPrompt: null, occurrencePrompt: null, effectivePrompt: null })
    await atrium.request("PUT", `/hub/v1/calendar/events/${second}/occurrence-prompt`, {
      token: bob.token,
      body: { prompt: "Only risks." }
    })
    expect((await atrium.request("GET", `/hub/v1/calendar/events/${second}`, { token: bob.token })).body.effectivePrompt).toBe(
      "Only risks."
    )
    // Attendees cannot change the organizer's event.
    expect((await atrium.request("PATCH", `/hub/v1/calendar/series/${event.id}`, { token: bob.token, body: { title: "x" } })).status).toBe(
      403
    )

    // A bare event id names the first occurrence, in the API and for recordings alike.
    const bare = await atrium.request("GET", `/hub/v1/calendar/events/${event.id}`, { token: alice.token })
    expect(bare.body).toMatchObject({ occurrenceId: first, seriesPrompt: "Track decisions.", occurrencePrompt: null })
    await atrium.request("PUT", `/hub/v1/calendar/events/${event.id}/occurrence-prompt`, {
      token: bob.token,
      body: { prompt: "First one." }
    })
    expect((await atrium.run(occurrencePrompts(event.id, [bob.userId]))).get(bob.userId)).toBe("First one.")
    expect((await atrium.request("GET", `/hub/v1/calendar/events/${first}`, { token: bob.token })).body.occurrencePrompt).toBe("First one.")

    const prompts = await atrium.run(occurrencePrompts(second, [alice.userId, bob.userId, "00000000-0000-4000-8000-000000000000"]))
    expect(Object.fromEntries(prompts)).toEqual({
      [alice.userId]: "series custom prompt: Track decisions.\noccurrence custom prompt: Budget only.",
      [bob.userId]: "Only risks.",
      "00000000-0000-4000-8000-000000000000": null
    })

    // Clearing with null; removing Bob from the attendees takes the event (and his prompts) away.
    await atrium.request("PUT", `/hub/v1/calendar/events/${first}/series-prompt`, { token: alice.token, body: { prompt: null } })
    expect((await atrium.request("GET", `/hub/v1/calendar/events/${second}`, { token: alice.token })).body.effectivePrompt).toBe(
      "Budget only."
    )
    const removed = await atrium.request("PATCH", `/hub/v1/calendar/series/${event.id}`, {
      token: alice.token,
      body: { attendeeEmails: [] }
    })
    expect(removed.status).toBe(200)
    expect((await atrium.request("GET", `/hub/v1/calendar/events/${second}`, { token: bob.token })).status).toBe(404)
    expect((await atrium.run(occurrencePrompts(second, [bob.userId]))).get(bob.userId)).toBeNull()
  })

  it("API keys: calendar:read reads, prompt changes need recordings:write", async () => {
    const alice = await signUp(atrium, "Alice")
    const workspace = await atrium.request("POST", "/pm/v1/workspaces", { token: alice.token, body: { name: "Acme" } })
    const keyOf = async (scopes: Array<string>) =>
      (
        await atrium.request("POST", "/hub/v1/api-keys", {
          token: alice.token,
          body: { workspaceId: workspace.body.id, name: "k", scopes }
        })
      ).body.key as string
    const reader = await keyOf(["calendar:read"])
    const writer = await keyOf(["calendar:read", "recordings:write"])
    const event = await create(alice.token, { title: "Demo", start: "2026-12-02T10:00:00Z", end: "2026-12-02T10:30:00Z" })
    const path = `/hub/v1/calendar/events/${event.firstOccurrenceId}`
    expect((await atrium.request("GET", path, { apiKey: reader })).status).toBe(200)
    expect((await atrium.request("PUT", `${path}/series-prompt`, { apiKey: reader, body: { prompt: "x" } })).status).toBe(403)
    const set = await atrium.request("PUT", `${path}/series-prompt`, { apiKey: writer, body: { prompt: "x" } })
    expect(set.status).toBe(200)
    expect(
      (
        await atrium.request("POST", "/hub/v1/calendar/events", {
          apiKey: writer,
          body: { title: "x", start: event.start, end: event.end }
        })
      ).status
    ).toBe(403)
  })

  it("cancelling an occurrence hides it; deleting the series removes it from attendees too", async () => {
    const alice = await signUp(atrium, "Alice")
    const bob = await signUp(atrium, "Bob")
    const event = await create(alice.token, {
      title: "Daily",
      start: "2027-03-01T08:00:00Z",
      end: "2027-03-01T08:15:00Z",
      recurrence: "FREQ=DAILY;COUNT=3",
      attendeeEmails: [bob.email]
    })
    const cancelled = await atrium.request("DELETE", `/hub/v1/calendar/events/${event.id}_20270302T080000Z`, { token: alice.token })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.cancelledOccurrences).toEqual(["2027-03-02T08:00:00.000Z"])
    expect((await list(bob.token, "2027-03-01T00:00:00Z", "2027-03-05T00:00:00Z")).map((o) => o.start.slice(0, 10))).toEqual([
      "2027-03-01",
      "2027-03-03"
    ])
    expect((await atrium.request("DELETE", `/hub/v1/calendar/series/${event.id}`, { token: alice.token })).status).toBe(204)
    expect(await list(bob.token, "2027-03-01T00:00:00Z", "2027-03-05T00:00:00Z")).toEqual([])
    expect(await list(alice.token, "2027-03-01T00:00:00Z", "2027-03-05T00:00:00Z")).toEqual([])
  })
})
