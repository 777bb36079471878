/**
 * The web app's assets as the server serves them (no browser needed): built on
 * start, index.html revalidated, hashed assets immutable, right content types,
 * gzip when accepted, each area in its own chunk, the app's history-API routes
 * answered with index.html, the API untouched beside them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestServer } from "../support/atrium.ts"

describe("web app assets", () => {
  let atrium: TestServer
  beforeAll(async () => {
    atrium = await startAtrium()
  }, 60_000)
  afterAll(async () => {
    await atrium?.close()
  })

  it("serves index.html uncached but revalidated, naming hashed assets", async () => {
    const index = await fetch(`${atrium.origin}/`)
    expect(index.status).toBe(200)
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(index.headers.get("cache-control")).toBe("no-cache")
    const etag = index.headers.get("etag")
    expect(etag).toMatch(/^"[\w-]+"$/)
    const html = await index.text()
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/app-[\w-]+\.js"><\/script>/)
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[\w-]+\.css">/)
    const again = await fetch(`${atrium.origin}/`, { headers: { "if-none-match": etag! } })
    expect(again.status).toBe(304)
    expect(await (await fetch(`${atrium.origin}/index.html`)).text()).toBe(html)
  })

  it("serves the bundle and the styles with their types, immutable, gzipped when accepted", async () => {
    const html = await (await fetch(`${atrium.origin}/`)).text()
    const script = /src="(\/assets\/app-[\w-]+\.js)"/.exec(html)![1]!
    const styles = /href="(\/assets\/[\w-]+\.css)"/.exec(html)![1]!
    for (const [asset, type] of [
      [script, "text/javascript; charset=utf-8"],
      [styles, "text/css; charset=utf-8"],
      [`${script}.map`, "application/json"]
    ] as const) {
      const response = await fetch(`${atrium.origin}${asset}`, { headers: { "accept-encoding": "gzip" } })
      expect(response.status, asset).toBe(200)
      expect(response.headers.get("content-type")).toBe(type)
      expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
      expect(response.headers.get("content-encoding")).toBe("gzip")
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
      expect((await response.text()).length).toBeGreaterThan(100)
    }
    // The first chunk is the shell and data layer: each area is a chunk of its own, loaded on demand
    // (the wiki's with the editor and the shared schema), and nothing imports Node built-ins.
    const bundle = await (await fetch(`${atrium.origin}${script}`)).text()
    expect(bundle).not.toMatch(/from\s*["']node:/)
    expect(bundle).not.toContain("collaboration-carets__caret")
    const wikiChunk = /wiki-[\w-]+\.js/.exec(bundle)?.[0]
    expect(wikiChunk).toBeDefined()
    const wiki = await (await fetch(`${atrium.origin}/assets/${wikiChunk}`)).text()
    expect(wiki).toContain("collaboration-carets__caret")
    for (const area of ["work", "home", "meetings", "feedback", "settings"]) expect(bundle).toMatch(new RegExp(`${area}-[\\w-]+\\.js`))
  })

  it("answers index.html for the app's routes, never for the API's paths", async () => {
    const html = await (await fetch(`${atrium.origin}/`)).text()
    for (const route of [
      "/sign-in?next=%2Fw%2Fx",
      "/w/some-workspace",
      "/w/some-workspace/work/lists/some-list",
      "/portal/ideas",
      "/unsubscribe?token=abc.def"
    ]) {
      const response = await fetch(`${atrium.origin}${route}`)
      expect(response.status, route).toBe(200)
      expect(response.headers.get("cache-control"), route).toBe("no-cache")
      expect(await response.text(), route).toBe(html)
    }
    for (const route of ["/pm/v1/no-such-thing", "/wiki/v1/no-such-thing", "/feedback/v1/no-such-thing", "/hub/v1/no-such-thing"]) {
      const response = await fetch(`${atrium.origin}${route}`)
      expect(response.status, route).toBe(404)
      expect(response.headers.get("content-type"), route).toContain("application/json")
    }
  })

  it("answers 404 for unknown assets and leaves the API routes alone", async () => {
    expect((await fetch(`${atrium.origin}/assets/app-NOPE.js`)).status).toBe(404)
    const catalog = await fetch(`${atrium.origin}/pm/v1/api-catalog`)
    expect(catalog.status).toBe(200)
    expect(catalog.headers.get("content-type")).toContain("application/json")
    const unknown = await fetch(`${atrium.origin}/nowhere`)
    expect(unknown.status).toBe(404)
    expect(unknown.headers.get("content-type")).toContain("application/json")
  })
})
