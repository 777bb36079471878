/** Digest mornings: 08:00 on the recipient's clock, across daylight-saving changes; weekly ones on Mondays. */
import { describe, expect, it } from "vitest"
import { nextMorning } from "../../actors/notifications/Morning.ts"

const at = (iso: string) => Date.parse(iso)
const iso = (ms: number) => new Date(ms).toISOString()

describe("nextMorning", () => {
  it("is the same day's 08:00 before it, the next day's from 08:00 on", () => {
    expect(iso(nextMorning(at("2026-01-05T05:00:00Z"), "Europe/Berlin", "daily"))).toBe("2026-01-05T07:00:00.000Z")
    expect(iso(nextMorning(at("2026-01-05T07:00:00Z"), "Europe/Berlin", "daily"))).toBe("2026-01-06T07:00:00.000Z")
  })

  it("follows the zone's offset across a daylight-saving change", () => {
    // Berlin moves to CEST (UTC+2) in the night of Sunday 29 March 2026.
    expect(iso(nextMorning(at("2026-03-28T12:00:00Z"), "Europe/Berlin", "daily"))).toBe("2026-03-29T06:00:00.000Z")
    expect(iso(nextMorning(at("2026-11-01T03:00:00Z"), "America/New_York", "daily"))).toBe("2026-11-01T13:00:00.000Z")
  })

  it("puts a weekly digest on the next Monday morning", () => {
    expect(iso(nextMorning(at("2026-03-28T12:00:00Z"), "Europe/Berlin", "weekly"))).toBe("2026-03-30T06:00:00.000Z")
    // A Monday after 08:00 waits a week.
    expect(iso(nextMorning(at("2026-03-30T07:00:00Z"), "Europe/Berlin", "weekly"))).toBe("2026-04-06T06:00:00.000Z")
    expect(iso(nextMorning(at("2026-03-29T22:30:00Z"), "Asia/Tokyo", "weekly"))).toBe("2026-03-29T23:00:00.000Z")
  })

  it("reads an unknown zone as UTC", () => {
    expect(iso(nextMorning(at("2026-01-05T09:00:00Z"), "Mars/Olympus", "daily"))).toBe("2026-01-06T08:00:00.000Z")
  })
})
