/** pm "Reference Data": every set is served, public and cacheable, with the values the rest of pm uses. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { scopes } from "../../../facade/Scopes.ts"
import { atriumRegistry } from "../../../facade/operations.ts"
import { startAtrium, type TestAtrium } from "../../support/atrium.ts"

let atrium: TestAtrium
beforeAll(async () => {
  atrium = await startAtrium()
})
afterAll(async () => {
  await atrium?.close()
})

const items = async (set: string) => {
  const response = await atrium.request("GET", `/pm/v1/reference-data/${set}`)
  expect(response.status, set).toBe(200)
  return response.body.items as Array<Record<string, any>>
}
const ids = async (set: string) => (await items(set)).map((item) => item.id)

describe("reference data", () => {
  it("indexes 23 sets, each served at its path with as many items as announced", async () => {
    const index = await atrium.request("GET", "/pm/v1/reference-data")
    expect(index.status).toBe(200)
    expect(index.body.items.length).toBe(23)
    for (const set of index.body.items as Array<{ id: string; count: number; path: string }>) {
      const response = await atrium.request("GET", set.path)
      expect(response.status, set.id).toBe(200)
      expect(response.body.items.length, set.id).toBe(set.count)
      expect(set.count, set.id).toBeGreaterThan(0)
    }
    const operations = atriumRegistry.ofService("pm").filter((op) => op.tag === "Reference Data")
    expect(operations.length).toBe(24)
    expect(operations.every((op) => op.auth === "public")).toBe(true)
  })

  it("uses the values the rest of pm uses", async () => {
    expect(await ids("access-levels")).toEqual(["owner", "admin", "member", "viewer"])
    expect(await ids("status-types")).toEqual(["open", "active", "done", "closed"])
    expect((await items("status-types")).filter((s) => s.finished).map((s) => s.id)).toEqual(["done", "closed"])
    expect(await ids("priorities")).toEqual(["urgent", "high", "normal", "low"])
    expect((await items("priorities")).map((p) => p.rank)).toEqual([1, 2, 3, 4])
    expect(await ids("relationship-types")).toEqual(["blocks", "blocked-by", "relates-to", "duplicates"])
    expect((await items("relationship-types")).find((r) => r.id === "blocks")?.inverse).toBe("blocked-by")
    expect(await ids("custom-field-types")).toEqual(
      expect.arrayContaining(["text", "number", "date", "dropdown", "labels", "checkbox", "email", "url", "currency"])
    )
    expect(await ids("notification-reasons")).toEqual(["assigned", "mentioned", "status_changed", "commented", "watching", "due_soon"])
    expect(await ids("stream-scopes")).toEqual(["workspace", "space", "list", "task"])
    expect((await items("default-statuses")).map((s) => s.type)).toEqual(expect.arrayContaining(["open", "done"]))
    expect(await ids("api-key-scopes")).toEqual(Object.keys(scopes))
    expect((await items("stream-close-codes")).map((c) => c.code)).toEqual(expect.arrayContaining([4400, 4401, 4403]))
    expect(await ids("view-types")).toEqual(expect.arrayContaining(["list", "board", "calendar", "table"]))
    expect(await ids("team-roles")).toEqual(["lead", "member"])
    expect(await ids("themes")).toEqual(["system", "light", "dark"])
    expect(await ids("time-formats")).toEqual(["12h", "24h"])
    expect(await ids("week-start-days")).toEqual(["sunday", "monday", "saturday"])
    expect((await items("date-formats")).find((f) => f.id === "YYYY-MM-DD")?.example).toBe("2026-11-21")
    expect((await items("colors")).every((c) => /^#[0-9a-f]{6}$/.test(c.hex))).toBe(true)
    expect(await ids("space-features")).toEqual(expect.arrayContaining(["priorities", "dueDates", "timeTracking"]))
    expect(await ids("hierarchy-levels")).toEqual(["workspace", "space", "folder", "list", "task"])
    expect((await items("user-status-presets")).find((p) => p.id === "meeting")?.defaultMinutes).toBe(60)
    const zones = await items("time-zones")
    expect(zones[0]).toEqual({ id: "UTC", utcOffset: "+00:00", utcOffsetMinutes: 0 })
    const india = zones.find((z) => z.id === "Asia/Kolkata" || z.id === "Asia/Calcutta")
    expect(india).toMatchObject({ utcOffset: "+05:30", utcOffsetMinutes: 330 })
    expect((await items("locales")).find((l) => l.id === "de-DE")).toMatchObject({
      name: "German (Germany)",
      nativeName: "Deutsch (Deutschland)"
    })
    expect((await items("currencies")).find((c) => c.id === "EUR")).toMatchObject({ name: "Euro", symbol: "€" })
  })

  it("is cacheable: an ETag, and 304 when it matches", async () => {
    const first = await atrium.request("GET", "/pm/v1/reference-data/priorities")
    const etag = first.headers.get("etag")
    expect(etag).toMatch(/^".+"$/)
    expect(first.headers.get("cache-control")).toContain("max-age")
    const again = await atrium.request("GET", "/pm/v1/reference-data/priorities", { headers: { "if-none-match": etag! } })
    expect(again.status).toBe(304)
    expect((await atrium.request("GET", "/pm/v1/reference-data/galaxies")).status).toBe(404)
  })
})
