import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAtrium, type TestAtrium } from "../../support/atrium.ts"
import { createPage, createSpace, team, type Team } from "./fixture.ts"

let atrium: TestAtrium
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await team(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

// A 1×1 transparent PNG.
const png = Uint8Array.from(
  Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64")
)

const upload = (token: string, pageId: string, bytes: Uint8Array | string, contentType: string, filename?: string) =>
  atrium.request("POST", `/wiki/v1/pages/${pageId}/attachments${filename ? `?filename=${encodeURIComponent(filename)}` : ""}`, {
    token,
    rawBody: bytes,
    headers: { "content-type": contentType }
  })

describe("Wiki Attachments", () => {
  it("uploads, lists, describes, downloads and deletes", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Diagrams" })
    const image = await upload(t.member.token, page.id, png, "image/png", "net/work.png")
    expect(image.status, image.text).toBe(201)
    expect(image.body).toMatchObject({
      pageId: page.id,
      spaceId: space.id,
      filename: "work.png",
      contentType: "image/png",
      size: png.length,
      uploadedBy: { userId: t.member.userId, name: "Member" },
      reference: `attachment:${image.body.id}`
    })
    expect(image.body.markdown).toBe(`![work.png](/wiki/v1/attachments/${image.body.id}/content)`)
    const notes = await upload(t.member.token, page.id, "plain notes", "text/plain; charset=utf-8")
    expect(notes.body).toMatchObject({ filename: "attachment.txt", contentType: "text/plain" })

    const listed = await atrium.request("GET", `/wiki/v1/pages/${page.id}/attachments`, { token: t.viewer.token })
    expect(listed.body.items.map((a: { id: string }) => a.id)).toEqual([image.body.id, notes.body.id])
    const described = await atrium.request("GET", `/wiki/v1/attachments/${image.body.id}`, { token: t.viewer.token })
    expect(described.body.id).toBe(image.body.id)

    const download = await fetch(`${atrium.origin}/wiki/v1/attachments/${image.body.id}/content`, {
      headers: { authorization: `Bearer ${t.viewer.token}` }
    })
    expect(download.status).toBe(200)
    expect(download.headers.get("content-type")).toBe("image/png")
    expect(download.headers.get("content-disposition")).toMatch(/^inline; filename="work.png"/)
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(png)
    const forced = await fetch(`${atrium.origin}/wiki/v1/attachments/${image.body.id}/content?disposition=attachment`, {
      headers: { authorization: `Bearer ${t.viewer.token}` }
    })
    expect(forced.headers.get("content-disposition")).toMatch(/^attachment;/)
    const text = await fetch(`${atrium.origin}/wiki/v1/attachments/${notes.body.id}/content`, {
      headers: { authorization: `Bearer ${t.viewer.token}` }
    })
    expect(text.headers.get("content-disposition")).toMatch(/^attachment;/)
    expect(await text.text()).toBe("plain notes")

    // The image as the page's cover; deleting it removes the cover.
    const covered = await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, {
      token: t.member.token,
      body: { coverImage: image.body.reference }
    })
    expect(covered.body.coverImage).toBe(image.body.reference)
    expect(
      (
        await atrium.request("PATCH", `/wiki/v1/pages/${page.id}`, {
          token: t.member.token,
          body: { coverImage: `attachment:${notes.body.id}` }
        })
      ).status
    ).toBe(400)
    expect((await atrium.request("DELETE", `/wiki/v1/attachments/${image.body.id}`, { token: t.viewer.token })).status).toBe(403)
    expect((await atrium.request("DELETE", `/wiki/v1/attachments/${image.body.id}`, { token: t.member.token })).status).toBe(204)
    expect((await atrium.request("GET", `/wiki/v1/attachments/${image.body.id}`, { token: t.member.token })).status).toBe(404)
    expect((await atrium.request("GET", `/wiki/v1/attachments/${image.body.id}/content`, { token: t.member.token })).status).toBe(404)
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { token: t.member.token })).body.coverImage).toBeNull()
  })

  it("checks size, content type and the bytes; viewers and outsiders cannot upload", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Files" })
    expect((await upload(t.member.token, page.id, "MZ\u0090\u0000", "application/x-msdownload")).status).toBe(415)
    const lying = await upload(t.member.token, page.id, "not a png", "image/png")
    expect(lying.status).toBe(415)
    expect(lying.body.error.details[0].path).toBe("body")
    expect((await upload(t.member.token, page.id, "{bad json", "application/json")).status).toBe(415)
    expect((await upload(t.member.token, page.id, new Uint8Array(0), "text/plain")).status).toBe(400)
    const tooBig = await upload(t.member.token, page.id, new Uint8Array(10 * 1024 * 1024 + 1).fill(65), "text/plain")
    expect(tooBig.status).toBe(413)
    expect((await upload(t.viewer.token, page.id, png, "image/png")).status).toBe(403)
    expect((await upload(t.outsider.token, page.id, png, "image/png")).status).toBe(404)
    const mine = await upload(t.member.token, page.id, png, "image/png")
    expect((await atrium.request("GET", `/wiki/v1/attachments/${mine.body.id}`, { token: t.outsider.token })).status).toBe(404)
    // Restricting the page hides its attachments.
    await atrium.request("PUT", `/wiki/v1/pages/${page.id}/permissions`, { token: t.member.token, body: { restriction: "view" } })
    expect((await atrium.request("GET", `/wiki/v1/attachments/${mine.body.id}/content`, { token: t.viewer.token })).status).toBe(404)
  })

  it("deleting a page deletes its attachments", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Temp" })
    const file = (await upload(t.member.token, page.id, "bye", "text/plain")).body
    expect((await atrium.request("DELETE", `/wiki/v1/pages/${page.id}`, { token: t.member.token })).status).toBe(204)
    expect((await atrium.request("GET", `/wiki/v1/attachments/${file.id}`, { token: t.owner.token })).status).toBe(404)
  })
})

describe("Cover Images", () => {
  it("offers the built-in gallery and the images attached to pages the caller can see", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const open = await createPage(atrium, t.member.token, space.id, { title: "Open" })
    const hidden = await createPage(atrium, t.member.token, space.id, { title: "Hidden" })
    const visibleImage = (await upload(t.member.token, open.id, png, "image/png", "team.png")).body
    const hiddenImage = (await upload(t.member.token, hidden.id, png, "image/png", "secret.png")).body
    await upload(t.member.token, open.id, "notes", "text/plain")
    await atrium.request("PUT", `/wiki/v1/pages/${hidden.id}/permissions`, { token: t.member.token, body: { restriction: "view" } })

    const all = await atrium.request("GET", `/wiki/v1/cover-images?workspaceId=${t.workspaceId}`, { token: t.viewer.token })
    expect(all.status).toBe(200)
    const refs = all.body.items.map((i: { reference: string }) => i.reference)
    expect(refs).toContain("gallery:gradient-ocean")
    expect(refs).toContain(visibleImage.reference)
    expect(refs).not.toContain(hiddenImage.reference)
    const gradient = all.body.items.find((i: { reference: string }) => i.reference === "gallery:gradient-ocean")
    expect(gradient.url).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(Buffer.from(gradient.url.split(",")[1], "base64").toString()).toContain("<svg")
    const colors = await atrium.request("GET", `/wiki/v1/cover-images?workspaceId=${t.workspaceId}&category=color`, {
      token: t.viewer.token
    })
    expect(colors.body.items.every((i: { category: string }) => i.category === "color")).toBe(true)
    const uploaded = await atrium.request("GET", `/wiki/v1/cover-images?workspaceId=${t.workspaceId}&category=uploaded`, {
      token: t.member.token
    })
    expect(uploaded.body.items.map((i: { reference: string }) => i.reference)).toEqual(
      expect.arrayContaining([visibleImage.reference, hiddenImage.reference])
    )
    expect(uploaded.body.items.every((i: { category: string }) => i.category === "uploaded")).toBe(true)
    // Every gallery reference is accepted as a cover.
    const covered = await atrium.request("PATCH", `/wiki/v1/pages/${open.id}`, {
      token: t.member.token,
      body: { coverImage: colors.body.items[0].reference }
    })
    expect(covered.status).toBe(200)
    expect((await atrium.request("GET", `/wiki/v1/cover-images?workspaceId=${t.workspaceId}`, { token: t.outsider.token })).status).toBe(
      404
    )
    expect(
      (await atrium.request("GET", `/wiki/v1/cover-images?workspaceId=${t.workspaceId}&category=photos`, { token: t.member.token })).status
    ).toBe(400)
  })
})
