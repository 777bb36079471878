/**
 * Wiki Export and Wiki Import: pages as Markdown/HTML/JSON, a space as a zip
 * through a background job, and pages back from Markdown, HTML and zips —
 * a space's export zip imports as the same tree.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { readZip, writeZip } from "../../../actors/wiki/ZipArchive.ts"
import { addMember, createPage, createSpace, createWorkspace, type DiscoveryAtrium, eventually, signUp, type TestUser } from "./harness.ts"

/** Registers the cases; `current` is the Atrium they run against (started by discovery.test.ts). */
export const exchangeCases = (current: () => DiscoveryAtrium) => {
  let atrium: DiscoveryAtrium
  beforeAll(() => {
    atrium = current()
  })

  const encoder = new TextEncoder()
  const decoder = new TextDecoder()

  interface World {
    owner: TestUser
    viewer: TestUser
    workspaceId: string
    space: { id: string; key: string }
    guide: { id: string; slug: string }
    install: { id: string; slug: string }
    secret: { id: string; slug: string }
  }

  const world = async (): Promise<World> => {
    const owner = await signUp(atrium, "Owner")
    const viewer = await signUp(atrium, "Viewer")
    const workspaceId = await createWorkspace(atrium, owner)
    await addMember(atrium, owner, workspaceId, viewer, "viewer")
    const space = await createSpace(atrium, owner, workspaceId, { name: "Handbook", key: "HB" })
    const guide = await createPage(atrium, owner, space.id, { title: "Guide <1>", markdown: "Read **this** first.\n\n- one\n- two" })
    const install = await createPage(atrium, owner, space.id, { title: "Install", markdown: "Run `make`.", parentPageId: guide.id })
    const secret = await createPage(atrium, owner, space.id, { title: "Secret", markdown: "Hidden." })
    expect(
      (await atrium.request("PUT", `/wiki/v1/pages/${secret.id}/permissions`, { token: owner.token, body: { restriction: "view" } })).status
    ).toBe(200)
    return { owner, viewer, workspaceId, space, guide, install, secret }
  }

  const download = async (path: string, token: string) => {
    const response = await fetch(atrium.origin + path, { headers: { authorization: `Bearer ${token}` } })
    return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
  }

  describe("page exports", () => {
    it("downloads a page as Markdown, HTML and JSON for anyone who may read it", async () => {
      const w = await world()
      const markdown = await atrium.request("GET", `/wiki/v1/pages/${w.guide.id}/export/markdown`, { token: w.viewer.token })
      expect(markdown.status, markdown.text).toBe(200)
      expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8")
      expect(markdown.headers.get("content-disposition")).toContain(`filename="${w.guide.slug}.md"`)
      expect(markdown.text).toBe("# Guide <1>\n\nRead **this** first.\n\n- one\n- two\n")
      const html = await atrium.request("GET", `/wiki/v1/pages/${w.guide.id}/export/html`, { token: w.viewer.token })
      expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(html.text).toMatch(/^<!doctype html>/)
      expect(html.text).toContain("<title>Guide &lt;1&gt;</title>")
      expect(html.text).toContain("<strong>this</strong>")
      const json = await atrium.request("GET", `/wiki/v1/pages/${w.install.id}/export/json`, { token: w.viewer.token })
      expect(json.status, json.text).toBe(200)
      expect(json.body).toMatchObject({
        format: "atrium.wiki.page",
        version: 1,
        page: { id: w.install.id, parentId: w.guide.id, spaceKey: "HB", title: "Install" },
        markdown: "Run `make`.\n",
        text: "Run make."
      })
      expect(json.body.content.type).toBe("doc")
      // Hidden pages are not found; strangers see nothing.
      expect((await atrium.request("GET", `/wiki/v1/pages/${w.secret.id}/export/markdown`, { token: w.viewer.token })).status).toBe(404)
      const stranger = await signUp(atrium, "Stranger")
      expect((await atrium.request("GET", `/wiki/v1/pages/${w.guide.id}/export/json`, { token: stranger.token })).status).toBe(404)
    })

    it("refuses exports when the workspace turned them off", async () => {
      const w = await world()
      const off = await atrium.request("PATCH", `/wiki/v1/workspaces/${w.workspaceId}/wiki-settings`, {
        token: w.owner.token,
        body: { allowExports: false }
      })
      expect(off.status, off.text).toBe(200)
      expect((await atrium.request("GET", `/wiki/v1/pages/${w.guide.id}/export/markdown`, { token: w.owner.token })).status).toBe(403)
      expect(
        (await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/export`, { token: w.owner.token, body: { format: "html" } })).status
      ).toBe(403)
    })
  })

  describe("space export", () => {
    it("builds a zip of the pages the requester may read, in a background job", async () => {
      const w = await world()
      const started = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/export`, {
        token: w.viewer.token,
        body: { format: "markdown" }
      })
      expect(started.status, started.text).toBe(202)
      expect(started.body).toMatchObject({ spaceId: w.space.id, format: "markdown", downloadUrl: null })
      const jobPath = `/wiki/v1/exports/${started.body.id}`
      expect((await atrium.request("GET", jobPath, { token: w.owner.token })).status).toBe(404)
      const done = await eventually(async () => {
        const job = await atrium.request("GET", jobPath, { token: w.viewer.token })
        return job.body.status === "succeeded" || job.body.status === "failed" ? job : undefined
      }, "export finished")
      expect(done.body).toMatchObject({ status: "succeeded", pageCount: 2, pagesDone: 2, error: null })
      expect(done.body.downloadUrl).toBe(`${atrium.origin}${jobPath}?download=true`)
      const zip = await download(`${jobPath}?download=true`, w.viewer.token)
      expect(zip.status).toBe(200)
      expect(zip.headers.get("content-type")).toBe("application/zip")
      expect(zip.bytes.length).toBe(done.body.sizeBytes)
      const files = new Map(readZip(zip.bytes, 10_000_000).map((entry) => [entry.name, decoder.decode(entry.data)]))
      expect([...files.keys()].sort()).toEqual(
        [`${w.guide.slug}.md`, `${w.guide.slug}/${w.install.slug}.md`, "index.md", "space.json"].sort()
      )
      expect(files.get(`${w.guide.slug}/${w.install.slug}.md`)).toBe("# Install\n\nRun `make`.\n")
      expect(files.get("index.md")).toContain(`- [Guide <1>](${w.guide.slug}.md)`)
      const manifest = JSON.parse(files.get("space.json")!)
      expect(manifest).toMatchObject({ format: "atrium.wiki.space-export", space: { key: "HB", name: "Handbook" } })
      expect(manifest.pages.map((p: { id: string }) => p.id)).toEqual([w.guide.id, w.install.id])

      // The owner's export includes the restricted page; HTML files are standalone documents.
      const html = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/export`, { token: w.owner.token, body: { format: "html" } })
      const htmlDone = await eventually(async () => {
        const job = await atrium.request("GET", `/wiki/v1/exports/${html.body.id}`, { token: w.owner.token })
        return job.body.status === "succeeded" ? job : undefined
      }, "html export finished")
      expect(htmlDone.body.pageCount).toBe(3)
      const htmlZip = readZip((await download(`/wiki/v1/exports/${html.body.id}?download=true`, w.owner.token)).bytes, 10_000_000)
      const secretFile = htmlZip.find((entry) => entry.name === `${w.secret.slug}.html`)
      expect(decoder.decode(secretFile!.data)).toContain("<h1>Secret</h1>")

      // The export imports back as the same tree.
      const copy = await createSpace(atrium, w.owner, w.workspaceId, { name: "Copy", key: "COPY" })
      const imported = await atrium.request("POST", `/wiki/v1/spaces/${copy.id}/import/zip`, {
        token: w.owner.token,
        rawBody: zip.bytes,
        headers: { "content-type": "application/zip" }
      })
      expect(imported.status, imported.text).toBe(201)
      expect(imported.body.skipped).toEqual([])
      expect(imported.body.pages.map((p: { title: string }) => p.title)).toEqual(["Guide <1>", "Install"])
      expect(imported.body.pages[1].parentId).toBe(imported.body.pages[0].id)
      const content = await atrium.request("GET", `/wiki/v1/pages/${imported.body.pages[0].id}/export/markdown`, { token: w.owner.token })
      expect(content.text).toBe("# Guide <1>\n\nRead **this** first.\n\n- one\n- two\n")
    })
  })

  describe("imports", () => {
    it("imports a Markdown or HTML file as a page, titled by its heading", async () => {
      const w = await world()
      const upload = (body: string, contentType: string, query = "", token = w.owner.token) =>
        atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/import${query}`, {
          token,
          rawBody: body,
          headers: { "content-type": contentType }
        })
      const md = await upload("# Release checklist\n\n1. Bump the version\n2. Tag it\n", "text/markdown", "?filename=checklist.md")
      expect(md.status, md.text).toBe(201)
      expect(md.body.page).toMatchObject({ title: "Release checklist", parentId: null, source: "checklist.md" })
      const exported = await atrium.request("GET", `/wiki/v1/pages/${md.body.page.id}/export/markdown`, { token: w.owner.token })
      expect(exported.text).toBe("# Release checklist\n\n1. Bump the version\n2. Tag it\n")
      const html = await upload(
        "<!doctype html><html><head><title>On call</title><style>p{}</style></head><body><h2>Rota</h2><p>Page <em>Bob</em> first.</p></body></html>",
        "text/html; charset=utf-8",
        `?parentPageId=${w.guide.id}`
      )
      expect(html.status, html.text).toBe(201)
      expect(html.body.page).toMatchObject({ title: "On call", parentId: w.guide.id })
      const htmlContent = await atrium.request("GET", `/wiki/v1/pages/${html.body.page.id}/export/markdown`, { token: w.owner.token })
      expect(htmlContent.text).toBe("# On call\n\n## Rota\n\nPage *Bob* first.\n")
      const named = await upload("just text", "text/plain", "?filename=notes.txt")
      expect(named.body.page.title).toBe("notes")
      const titled = await upload("# Ignored heading\n\nbody", "text/markdown", "?title=Chosen")
      expect(titled.body.page.title).toBe("Chosen")
      // Searchable at once.
      const found = await atrium.request("GET", `/wiki/v1/search?workspaceId=${w.workspaceId}&q=rota`, { token: w.owner.token })
      expect(found.body.results.map((r: { pageId: string }) => r.pageId)).toEqual([html.body.page.id])
      // Refusals.
      expect((await upload("# x", "text/markdown", "", w.viewer.token)).status).toBe(403)
      expect((await upload("# x", "application/pdf")).status).toBe(415)
      const notUtf8 = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/import`, {
        token: w.owner.token,
        rawBody: new Uint8Array([0x23, 0x20, 0xff, 0xfe]),
        headers: { "content-type": "text/markdown" }
      })
      expect(notUtf8.status).toBe(400)
      const otherSpace = await createSpace(atrium, w.owner, w.workspaceId, { name: "Other", key: "OTH" })
      const wrongParent = await atrium.request("POST", `/wiki/v1/spaces/${otherSpace.id}/import?parentPageId=${w.guide.id}`, {
        token: w.owner.token,
        rawBody: "# x",
        headers: { "content-type": "text/markdown" }
      })
      expect(wrongParent.status).toBe(404)
      expect(wrongParent.body.error.details[0].path).toBe("query.parentPageId")
      await atrium.request("PATCH", `/wiki/v1/workspaces/${w.workspaceId}/wiki-settings`, {
        token: w.owner.token,
        body: { allowImports: false }
      })
      expect((await upload("# x", "text/markdown")).status).toBe(403)
    })

    it("imports a zip of Markdown files as a tree, folders becoming parent pages", async () => {
      const w = await world()
      const zip = writeZip([
        { name: "Team/", data: new Uint8Array() },
        { name: "Team/Onboarding.md", data: encoder.encode("# Onboarding\n\nWelcome!") },
        { name: "Team/Onboarding/Laptop.md", data: encoder.encode("Get a laptop.") },
        { name: "Team/logo.png", data: new Uint8Array([1, 2, 3]) },
        { name: "README.html", data: encoder.encode("<h1>Read me</h1><p>Hi</p>") },
        { name: "__MACOSX/._README.html", data: new Uint8Array([0]) }
      ])
      const imported = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/import/zip?parentPageId=${w.guide.id}`, {
        token: w.owner.token,
        rawBody: zip,
        headers: { "content-type": "application/zip" }
      })
      expect(imported.status, imported.text).toBe(201)
      const byTitle = new Map(imported.body.pages.map((p: { title: string; id: string; parentId: string | null }) => [p.title, p]))
      expect([...byTitle.keys()].sort()).toEqual(["Laptop", "Onboarding", "Read me", "Team"])
      expect((byTitle.get("Team") as { parentId: string }).parentId).toBe(w.guide.id)
      expect((byTitle.get("Read me") as { parentId: string }).parentId).toBe(w.guide.id)
      expect((byTitle.get("Onboarding") as { parentId: string }).parentId).toBe((byTitle.get("Team") as { id: string }).id)
      expect((byTitle.get("Laptop") as { parentId: string }).parentId).toBe((byTitle.get("Onboarding") as { id: string }).id)
      expect(imported.body.skipped.map((s: { file: string }) => s.file).sort()).toEqual(["Team/logo.png", "__MACOSX/._README.html"])
      const bad = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/import/zip`, {
        token: w.owner.token,
        rawBody: encoder.encode("not a zip at all"),
        headers: { "content-type": "application/zip" }
      })
      expect(bad.status).toBe(400)
      expect(bad.body.error.details[0].path).toBe("body")
      const nothing = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/import/zip`, {
        token: w.owner.token,
        rawBody: writeZip([{ name: "a.png", data: new Uint8Array([1]) }]),
        headers: { "content-type": "application/zip" }
      })
      expect(nothing.status).toBe(400)
    })

    it("refuses imported text no store can hold: a file with 400 naming the body, a zip entry reported and skipped", async () => {
      const w = await world()
      const single = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/import`, {
        token: w.owner.token,
        rawBody: encoder.encode("# Title\n\nnul\u0000byte"),
        headers: { "content-type": "text/markdown" }
      })
      expect(single.status, single.text).toBe(400)
      expect(single.body.error.details).toEqual([{ path: "body", message: "contains a NUL character" }])
      const zip = writeZip([
        { name: "Good.md", data: encoder.encode("# Good\n\nשלום 👋") },
        { name: "Bad.md", data: encoder.encode("# Bad\n\nnul\u0000byte") },
        { name: "Na\u0000me.md", data: encoder.encode("# Named") }
      ])
      const imported = await atrium.request("POST", `/wiki/v1/spaces/${w.space.id}/import/zip`, {
        token: w.owner.token,
        rawBody: zip,
        headers: { "content-type": "application/zip" }
      })
      expect(imported.status, imported.text).toBe(201)
      expect(imported.body.skipped).toEqual([
        { file: "Na\u0000me.md", reason: "its name contains a NUL character" },
        { file: "Bad.md", reason: "The file contains a NUL character" }
      ])
      const good = imported.body.pages.find((page: { title: string }) => page.title === "Good")
      const exported = await atrium.request("GET", `/wiki/v1/pages/${good.id}/export/markdown`, { token: w.owner.token })
      expect(exported.text).toBe("# Good\n\nשלום 👋\n")
    })
  })
}
