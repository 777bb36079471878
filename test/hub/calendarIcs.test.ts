/**
 * The calendar adapters' pure parts: an iCalendar file whose TZID has no
 * VTIMEZONE (read as the IANA zone), RDATE and a cancelled override; and the
 * wall-clock expansion of a Google-style recurrence with EXDATE and a UTC UNTIL
 * across a DST change.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { parseIcs } from "../../actors/hub/calendar/sync/IcsFeed.ts"
import { expandRecurrence, syncedEventId } from "../../actors/hub/calendar/sync/SyncedEvents.ts"

const window = { fromMs: Date.UTC(2030, 0, 1), toMs: Date.UTC(2031, 0, 1) }

describe("iCalendar parsing", () => {
  it("reads a TZID without VTIMEZONE as the IANA zone, adds RDATEs and drops a cancelled override", () => {
    // New York moves from -05:00 to -04:00 on 2030-03-10.
    const ics = [
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "BEGIN:VEVENT",
      "UID:standup@example.com",
      "DTSTART;TZID=America/New_York:20300304T093000",
      "DTEND;TZID=America/New_York:20300304T094500",
      "RRULE:FREQ=WEEKLY;COUNT=3",
      "RDATE;TZID=America/New_York:20300322T093000",
      "SUMMARY:Standup",
      "DESCRIPTION:Join at https://zoom.us/j/123456 please",
      "ORGANIZER:mailto:Owner@Example.com",
      "ATTENDEE:mailto:guest@example.com",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:standup@example.com",
      "RECURRENCE-ID;TZID=America/New_York:20300311T093000",
      "DTSTART;TZID=America/New_York:20300311T093000",
      "DTEND;TZID=America/New_York:20300311T094500",
      "STATUS:CANCELLED",
      "END:VEVENT",
      "BEGIN:VEVENT",
      "UID:holiday@example.com",
      "DTSTART;VALUE=DATE:20300401",
      "SUMMARY:Holiday",
      "END:VEVENT",
      "END:VCALENDAR"
    ].join("\r\n")
    const drafts = Effect.runSync(parseIcs(ics, window, "owner@example.com"))
    expect(drafts).toHaveLength(1)
    const [standup] = drafts
    expect(standup).toMatchObject({
      externalId: "standup@example.com",
      timeZone: "America/New_York",
      organizer: true,
      meetingUrl: "https://zoom.us/j/123456",
      attendeeEmails: ["guest@example.com"]
    })
    expect(standup!.instances.map((instance) => new Date(instance.startMs).toISOString())).toEqual([
      "2030-03-04T14:30:00.000Z",
      "2030-03-18T13:30:00.000Z",
      "2030-03-22T13:30:00.000Z"
    ])
  })

  it("refuses a file that is not iCalendar, naming the address", () => {
    const refused = Effect.runSync(Effect.flip(parseIcs("<html>login</html>", window, "owner@example.com")))
    expect(refused.code).toBe("bad_gateway")
    expect(refused.message).toContain("iCalendar")
  })
})

describe("recurrence lines in an IANA zone", () => {
  it("keeps 9:00 Berlin across DST, drops a UTC EXDATE and stops at a UTC UNTIL", () => {
    // Tuesdays 9:00 Berlin from 2030-03-19; DST starts 2030-03-31.
    const start = Date.UTC(2030, 2, 19, 8)
    const starts = expandRecurrence(
      ["RRULE:FREQ=WEEKLY;UNTIL=20300416T070000Z", "EXDATE:20300402T070000Z"],
      start,
      "Europe/Berlin",
      window
    ).map((at) => new Date(at).toISOString())
    expect(starts).toEqual(["2030-03-19T08:00:00.000Z", "2030-03-26T08:00:00.000Z", "2030-04-09T07:00:00.000Z", "2030-04-16T07:00:00.000Z"])
  })

  it("derives the same event id for the same suite id, another for another calendar", () => {
    const id = syncedEventId("0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10", "gseries")
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(syncedEventId("0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10", "gseries")).toBe(id)
    expect(syncedEventId("1b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10", "gseries")).not.toBe(id)
  })
})
