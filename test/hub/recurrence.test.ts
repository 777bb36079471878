/** The RRULE subset, unit by unit: parsing, expansion, bounds, and occurrence ids. */
import { describe, expect, it } from "vitest"
import { occurrenceIdOf, parseOccurrenceId, parseOccurrenceRef, effectivePrompt } from "../../actors/hub/calendar/CalendarEvent.ts"
import { isOccurrence, isProblem, occurrenceStarts, parseRule, type RecurrenceRule } from "../../actors/hub/calendar/Recurrence.ts"

const rule = (text: string): RecurrenceRule => {
  const parsed = parseRule(text)
  if (isProblem(parsed)) throw new Error(parsed.message)
  return parsed
}
const at = (iso: string) => Date.parse(iso)
const days = (starts: ReadonlyArray<number>) => starts.map((ms) => new Date(ms).toISOString().slice(0, 16))

describe("RRULE parsing", () => {
  it("accepts the subset, with or without the RRULE: prefix, in any case", () => {
    expect(rule("RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR;COUNT=4")).toEqual({
      freq: "WEEKLY",
      interval: 2,
      count: 4,
      byDay: [{ day: 0 }, { day: 4 }]
    })
    expect(rule("freq=monthly;byday=-1fr;until=20270101T000000Z")).toMatchObject({
      freq: "MONTHLY",
      byDay: [{ day: 4, ordinal: -1 }],
      until: at("2027-01-01T00:00:00Z")
    })
  })

  it("names what it refuses", () => {
    for (const [text, fragment] of [
      ["FREQ=HOURLY", "FREQ"],
      ["FREQ=DAILY;INTERVAL=0", "INTERVAL"],
      ["FREQ=DAILY;COUNT=1001", "COUNT"],
      ["FREQ=DAILY;COUNT=2;UNTIL=20270101", "COUNT and UNTIL"],
      ["FREQ=WEEKLY;BYDAY=1MO", "ordinals"],
      ["FREQ=MONTHLY;BYDAY=6MO", "ordinal"],
      ["FREQ=DAILY;BYSETPOS=1", "BYSETPOS"],
      ["FREQ=DAILY;FREQ=WEEKLY", "twice"],
      ["FREQ=DAILY;UNTIL=tomorrow", "UNTIL"],
      ["FREQ", "NAME=VALUE"]
    ] as const) {
      const parsed = parseRule(text)
      expect(isProblem(parsed) ? parsed.message : "accepted", text).toContain(fragment)
    }
  })
})

describe("expansion", () => {
  const start = at("2026-12-02T09:30:00Z") // a Wednesday

  it("weekly every other week on two days; the start always counts", () => {
    const starts = occurrenceStarts(start, rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=5"), 0, at("2030-01-01T00:00:00Z"))
    expect(days(starts)).toEqual(["2026-12-02T09:30", "2026-12-14T09:30", "2026-12-16T09:30", "2026-12-28T09:30", "2026-12-30T09:30"])
  })

  it("daily on weekdays only, bounded by an inclusive UNTIL", () => {
    const starts = occurrenceStarts(start, rule("FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20261208T093000Z"), 0, at("2030-01-01T00:00:00Z"))
    expect(days(starts)).toEqual(["2026-12-02T09:30", "2026-12-03T09:30", "2026-12-04T09:30", "2026-12-07T09:30", "2026-12-08T09:30"])
  })

  it("monthly on the second Tuesday", () => {
    const starts = occurrenceStarts(at("2026-12-08T15:00:00Z"), rule("FREQ=MONTHLY;BYDAY=2TU;COUNT=3"), 0, at("2030-01-01T00:00:00Z"))
    expect(days(starts)).toEqual(["2026-12-08T15:00", "2027-01-12T15:00", "2027-02-09T15:00"])
  })

  it("a window in the middle of a COUNT-bounded series sees only its part; an endless series stops at the window", () => {
    const weekly = rule("FREQ=WEEKLY;COUNT=10")
    expect(days(occurrenceStarts(start, weekly, at("2027-01-01T00:00:00Z"), at("2027-01-15T00:00:00Z")))).toEqual([
      "2027-01-06T09:30",
      "2027-01-13T09:30"
    ])
    expect(occurrenceStarts(start, weekly, at("2027-03-01T00:00:00Z"), at("2027-04-01T00:00:00Z"))).toEqual([])
    expect(occurrenceStarts(start, rule("FREQ=DAILY"), at("2036-01-01T00:00:00Z"), at("2036-01-03T00:00:00Z"))).toHaveLength(2)
    expect(isOccurrence(start, weekly, at("2026-12-09T09:30:00Z"))).toBe(true)
    expect(isOccurrence(start, weekly, at("2026-12-09T09:31:00Z"))).toBe(false)
  })

  it("keeps the wall-clock time of its time zone across daylight-saving changes", () => {
    // Mondays 09:00 in Berlin: 08:00Z in winter, 07:00Z once summer time starts (28 March 2027).
    const berlin = occurrenceStarts(at("2027-03-22T08:00:00Z"), rule("FREQ=WEEKLY;COUNT=3"), 0, at("2030-01-01T00:00:00Z"), "Europe/Berlin")
    expect(days(berlin)).toEqual(["2027-03-22T08:00", "2027-03-29T07:00", "2027-04-05T07:00"])
    // Read in UTC the same rule keeps 08:00Z.
    expect(days(occurrenceStarts(at("2027-03-22T08:00:00Z"), rule("FREQ=WEEKLY;COUNT=2"), 0, at("2030-01-01T00:00:00Z")))).toEqual([
      "2027-03-22T08:00",
      "2027-03-29T08:00"
    ])
    // A late-evening New York meeting is on the local weekday (Tuesday evening there is Wednesday in UTC).
    const ny = occurrenceStarts(
      at("2026-12-02T02:00:00Z"),
      rule("FREQ=WEEKLY;BYDAY=TU,TH;COUNT=3"),
      0,
      at("2030-01-01T00:00:00Z"),
      "America/New_York"
    )
    expect(days(ny)).toEqual(["2026-12-02T02:00", "2026-12-04T02:00", "2026-12-09T02:00"])
  })

  it("a single event is its one start", () => {
    expect(occurrenceStarts(start, undefined, 0, at("2030-01-01T00:00:00Z"))).toEqual([start])
    expect(occurrenceStarts(start, undefined, start + 1, at("2030-01-01T00:00:00Z"))).toEqual([])
  })
})

describe("occurrence ids and prompts", () => {
  it("round-trips an occurrence id; a bare event id names no start", () => {
    const id = occurrenceIdOf("5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f", at("2026-12-08T15:00:00Z"))
    expect(id).toBe("5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f_20261208T150000Z")
    expect(parseOccurrenceId(id)).toEqual({ eventId: "5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f", startMs: at("2026-12-08T15:00:00Z") })
    expect(parseOccurrenceRef("5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f")).toEqual({
      eventId: "5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f",
      startMs: undefined
    })
    expect(parseOccurrenceId("5d6e7f80-1a2b-4c3d-8e4f-5a6b7c8d9e0f")).toBeUndefined()
  })

  it("combines prompts exactly as the seed states", () => {
    expect(effectivePrompt({ series: "S", occurrence: "O" })).toBe("series custom prompt: S\noccurrence custom prompt: O")
    expect(effectivePrompt({ series: "S", occurrence: null })).toBe("S")
    expect(effectivePrompt({ series: null, occurrence: "O" })).toBe("O")
    expect(effectivePrompt({ series: null, occurrence: null })).toBeNull()
  })
})
