/**
 * Timestamps as PostgreSQL prints them, read into `Date#toISOString()` form:
 * a UTC session's usual output by rearranging its digits, everything else
 * (offsets, BC, five-digit years, infinity) through the general parser.
 */
import { describe, expect, it } from "vitest"
import { parseTimestamp } from "../persistence/internal/sqlValues.ts"

/** `at` as a UTC session prints a timestamptz: microseconds with trailing zeros dropped, "+00". */
const printed = (at: Date, micros: number, offset = "+00") => {
  const iso = at.toISOString()
  const fraction = String(at.getUTCMilliseconds() * 1000 + micros)
    .padStart(6, "0")
    .replace(/0+$/, "")
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction === "" ? "" : `.${fraction}`}${offset}`
}

describe("parseTimestamp", () => {
  it("reads a UTC session's timestamps to the millisecond, truncating microseconds", () => {
    let seed = 7
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed
    }
    for (let i = 0; i < 2000; i++) {
      // Years 0001–9999, any millisecond, any microsecond (often none, so the fraction's length varies).
      const at = new Date(Date.UTC(1, 0, 1) + (next() / 2 ** 31) * (Date.UTC(9999, 11, 31) - Date.UTC(1, 0, 1)))
      if (i % 3 === 0) at.setUTCMilliseconds(0)
      const micros = i % 2 === 0 ? 0 : next() % 1000
      const expected = at.toISOString()
      expect(parseTimestamp(printed(at, micros))).toBe(expected)
      // A timestamp without time zone prints no offset and is read as UTC.
      expect(parseTimestamp(printed(at, micros, ""))).toBe(expected)
    }
  })

  it("reads the examples PostgreSQL prints", () => {
    expect(parseTimestamp("2024-05-01 12:00:00.123456+00")).toBe("2024-05-01T12:00:00.123Z")
    expect(parseTimestamp("2024-05-01 12:00:00.1+00")).toBe("2024-05-01T12:00:00.100Z")
    expect(parseTimestamp("2024-05-01 12:00:00+00")).toBe("2024-05-01T12:00:00.000Z")
    expect(parseTimestamp("2024-05-01 12:00:00")).toBe("2024-05-01T12:00:00.000Z")
    expect(parseTimestamp("0044-03-15 00:00:00+00")).toBe("0044-03-15T00:00:00.000Z")
  })

  it("applies offsets, BC and long years through the general parser", () => {
    expect(parseTimestamp("2024-05-01 12:00:00.123456+02")).toBe("2024-05-01T10:00:00.123Z")
    expect(parseTimestamp("2024-05-01 12:00:00+05:30")).toBe("2024-05-01T06:30:00.000Z")
    expect(parseTimestamp("1900-01-01 00:00:00-03:00:15")).toBe("1900-01-01T03:00:15.000Z")
    expect(parseTimestamp("0044-03-15 00:00:00+00 BC")).toBe("-000043-03-15T00:00:00.000Z")
    expect(parseTimestamp("12024-05-01 12:00:00+00")).toBe("+012024-05-01T12:00:00.000Z")
    expect(parseTimestamp("infinity")).toBe("infinity")
    expect(parseTimestamp("-infinity")).toBe("-infinity")
  })
})
