import * as Y from "yjs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { contentOf } from "../../../richtext/RichText.ts"
import { startAtrium, type TestAtrium } from "../../support/atrium.ts"
import { connectEditor, eventually, synced } from "../../support/collabAtrium.ts"
import { closeEditor, createPage, createSpace, team, type Team } from "./fixture.ts"

let atrium: TestAtrium
let t: Team
beforeAll(async () => {
  atrium = await startAtrium()
  t = await team(atrium)
})
afterAll(async () => {
  await atrium?.close()
})

const comment = (token: string, pageId: string, body: Record<string, unknown>) =>
  atrium.request("POST", `/wiki/v1/pages/${pageId}/comments`, { token, body })

describe("Wiki Comments", () => {
  it("threads: start, reply (also to a reply), read, list by status; viewers may comment", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Plan", markdown: "Ship it in May." })
    const root = await comment(t.viewer.token, page.id, { body: "Which May?" })
    expect(root.status, root.text).toBe(201)
    expect(root.body).toMatchObject({
      pageId: page.id,
      parentId: null,
      body: "Which May?",
      anchor: null,
      resolved: false,
      deleted: false,
      author: { userId: t.viewer.userId, name: "Viewer" }
    })
    const reply = await atrium.request("POST", `/wiki/v1/comments/${root.body.id}/replies`, {
      token: t.member.token,
      body: { body: "This one." }
    })
    expect(reply.status).toBe(201)
    expect(reply.body.parentId).toBe(root.body.id)
    const replyToReply = await atrium.request("POST", `/wiki/v1/comments/${reply.body.id}/replies`, {
      token: t.viewer.token,
      body: { body: "Thanks" }
    })
    expect(replyToReply.body.parentId).toBe(root.body.id)
    const thread = await atrium.request("GET", `/wiki/v1/comments/${root.body.id}`, { token: t.owner.token })
    expect(thread.body.replies.map((r: { body: string }) => r.body)).toEqual(["This one.", "Thanks"])
    const single = await atrium.request("GET", `/wiki/v1/comments/${reply.body.id}`, { token: t.owner.token })
    expect(single.body).toMatchObject({ id: reply.body.id, replies: [] })
    await comment(t.member.token, page.id, { body: "Second thread" })
    const listed = await atrium.request("GET", `/wiki/v1/pages/${page.id}/comments`, { token: t.viewer.token })
    expect(listed.body.items.map((c: { body: string }) => c.body)).toEqual(["Which May?", "Second thread"])
    expect(listed.body.items[0].replies).toHaveLength(2)
    expect((await atrium.request("GET", `/wiki/v1/comments/${root.body.id}`, { token: t.outsider.token })).status).toBe(404)
    expect((await comment(t.outsider.token, page.id, { body: "hi" })).status).toBe(404)
    expect((await comment(t.member.token, page.id, { body: "  " })).status).toBe(400)
  })

  it("resolve and reopen threads (not replies); status filters", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Plan" })
    const root = (await comment(t.member.token, page.id, { body: "Done?" })).body
    const reply = (await atrium.request("POST", `/wiki/v1/comments/${root.id}/replies`, { token: t.member.token, body: { body: "Yes" } }))
      .body
    expect((await atrium.request("POST", `/wiki/v1/comments/${reply.id}/resolve`, { token: t.member.token })).status).toBe(409)
    const resolved = await atrium.request("POST", `/wiki/v1/comments/${root.id}/resolve`, { token: t.viewer.token })
    expect(resolved.status).toBe(200)
    expect(resolved.body).toMatchObject({ resolved: true, resolvedBy: t.viewer.userId })
    const open = await atrium.request("GET", `/wiki/v1/pages/${page.id}/comments?status=open`, { token: t.member.token })
    expect(open.body.items).toEqual([])
    const done = await atrium.request("GET", `/wiki/v1/pages/${page.id}/comments?status=resolved`, { token: t.member.token })
    expect(done.body.items.map((c: { id: string }) => c.id)).toEqual([root.id])
    const reopened = await atrium.request("POST", `/wiki/v1/comments/${root.id}/reopen`, { token: t.member.token })
    expect(reopened.body).toMatchObject({ resolved: false, resolvedAt: null, resolvedBy: null })
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/comments?status=closed`, { token: t.member.token })).status).toBe(400)
  })

  it("authors edit their own comments; authors or space admins delete; a root with replies stays as deleted", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Plan" })
    const root = (await comment(t.member.token, page.id, { body: "Original" })).body
    expect((await atrium.request("PATCH", `/wiki/v1/comments/${root.id}`, { token: t.owner.token, body: { body: "Hijack" } })).status).toBe(
      403
    )
    const edited = await atrium.request("PATCH", `/wiki/v1/comments/${root.id}`, { token: t.member.token, body: { body: "Edited" } })
    expect(edited.body).toMatchObject({ body: "Edited", editedAt: expect.any(String) })
    const reply = (await atrium.request("POST", `/wiki/v1/comments/${root.id}/replies`, { token: t.viewer.token, body: { body: "Reply" } }))
      .body
    expect((await atrium.request("DELETE", `/wiki/v1/comments/${reply.id}`, { token: t.member.token })).status).toBe(403)
    // The root has a reply: it stays, emptied, so the reply keeps its thread.
    expect((await atrium.request("DELETE", `/wiki/v1/comments/${root.id}`, { token: t.member.token })).status).toBe(204)
    const thread = await atrium.request("GET", `/wiki/v1/comments/${root.id}`, { token: t.member.token })
    expect(thread.body).toMatchObject({ deleted: true, body: "", replies: [expect.objectContaining({ id: reply.id })] })
    expect((await atrium.request("PATCH", `/wiki/v1/comments/${root.id}`, { token: t.member.token, body: { body: "Back" } })).status).toBe(
      404
    )
    // A space admin removes the last reply: the deleted root goes with it.
    expect((await atrium.request("DELETE", `/wiki/v1/comments/${reply.id}`, { token: t.owner.token })).status).toBe(204)
    expect((await atrium.request("GET", `/wiki/v1/comments/${root.id}`, { token: t.member.token })).status).toBe(404)
    // Archived pages take no comments.
    const lone = (await comment(t.member.token, page.id, { body: "Alone" })).body
    await atrium.request("POST", `/wiki/v1/pages/${page.id}/archive`, { token: t.member.token })
    expect((await comment(t.member.token, page.id, { body: "Late" })).status).toBe(409)
    expect((await atrium.request("DELETE", `/wiki/v1/comments/${lone.id}`, { token: t.member.token })).status).toBe(409)
  })

  it("mentions by @e-mail and by id, only of people who can read the page; my mentions", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, { title: "Review" })
    const created = await comment(t.member.token, page.id, {
      body: `@${t.viewer.email} please check, and @${t.outsider.email} too`,
      mentionUserIds: [t.admin.userId]
    })
    expect(created.status, created.text).toBe(201)
    expect(created.body.mentions.map((m: { userId: string }) => m.userId).sort()).toEqual([t.admin.userId, t.viewer.userId].sort())
    const refused = await comment(t.member.token, page.id, { body: "x", mentionUserIds: [t.outsider.userId] })
    expect(refused.status).toBe(400)
    expect(refused.body.error.details[0].path).toBe("body.mentionUserIds.0")
    const mine = await atrium.request("GET", `/wiki/v1/comments/mentions?workspaceId=${t.workspaceId}`, { token: t.viewer.token })
    expect(mine.status).toBe(200)
    expect(mine.body.items.map((c: { id: string }) => c.id)).toContain(created.body.id)
    expect(mine.body.items[0].page).toEqual({ id: page.id, title: "Review", slug: "review" })
    // Editing the comment changes its mentions.
    await atrium.request("PATCH", `/wiki/v1/comments/${created.body.id}`, { token: t.member.token, body: { body: "never mind" } })
    const after = await atrium.request("GET", `/wiki/v1/comments/mentions?workspaceId=${t.workspaceId}`, { token: t.viewer.token })
    expect(after.body.items.map((c: { id: string }) => c.id)).not.toContain(created.body.id)
    expect(
      (await atrium.request("GET", `/wiki/v1/comments/mentions?workspaceId=${t.workspaceId}`, { token: t.outsider.token })).status
    ).toBe(404)
  })

  it("lists a space's open threads across the pages the caller can see", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const a = await createPage(atrium, t.member.token, space.id, { title: "A" })
    const hidden = await createPage(atrium, t.member.token, space.id, { title: "Hidden" })
    const first = (await comment(t.member.token, a.id, { body: "on A" })).body
    await comment(t.member.token, hidden.id, { body: "on hidden" })
    await atrium.request("PUT", `/wiki/v1/pages/${hidden.id}/permissions`, { token: t.member.token, body: { restriction: "view" } })
    const resolved = (await comment(t.member.token, a.id, { body: "old" })).body
    await atrium.request("POST", `/wiki/v1/comments/${resolved.id}/resolve`, { token: t.member.token })
    const viewerList = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/comments`, { token: t.viewer.token })
    expect(viewerList.body.items.map((c: { body: string }) => c.body)).toEqual(["on A"])
    expect(viewerList.body.items[0]).toMatchObject({ id: first.id, page: { id: a.id, title: "A", slug: "a" }, replyCount: 0 })
    const memberAll = await atrium.request("GET", `/wiki/v1/spaces/${space.id}/comments?status=all`, { token: t.member.token })
    expect(memberAll.body.items.map((c: { body: string }) => c.body).sort()).toEqual(["old", "on A", "on hidden"])
    expect((await atrium.request("GET", `/wiki/v1/spaces/${space.id}/comments`, { token: t.outsider.token })).status).toBe(404)
  })

  it("inline comments stay anchored to their text while it is edited live, and detach when it is deleted", async () => {
    const space = await createSpace(atrium, t.owner.token, t.workspaceId)
    const page = await createPage(atrium, t.member.token, space.id, {
      title: "Setup",
      markdown: "# Setup\n\nInstall the VPN first.\n\nThen clone the repo."
    })
    const bad = await comment(t.member.token, page.id, { body: "?", anchor: { quote: "not in the page" } })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details[0].path).toBe("body.anchor.quote")
    const garbage = await comment(t.member.token, page.id, { body: "?", anchor: { start: "!!", end: "??" } })
    expect(garbage.status).toBe(400)
    const inline = await comment(t.member.token, page.id, { body: "Which VPN?", anchor: { quote: "the VPN" } })
    expect(inline.status, inline.text).toBe(201)
    // The heading "Setup" spans positions 0–7 (open, 5 characters, close); the paragraph's text starts at 8, "Install " is 8 characters.
    expect(inline.body.anchor).toEqual({ quote: "the VPN", text: "the VPN", from: 16, to: 23, detached: false })
    const replyAnchor = await atrium.request("POST", `/wiki/v1/comments/${inline.body.id}/replies`, {
      token: t.member.token,
      body: { body: "x", anchor: { quote: "VPN" } }
    })
    expect(replyAnchor.status).toBe(400)

    // Someone types before and inside the range in the live editor.
    const editor = connectEditor(atrium.origin.replace("http", "ws") + "/wiki/v1/collab", page.id, t.member.token)
    try {
      await synced(editor)
      const paragraph = contentOf(editor.doc).get(1) as Y.XmlElement
      const text = paragraph.get(0) as Y.XmlText
      editor.doc.transact(() => text.insert(0, "Please "))
      editor.doc.transact(() => text.insert("Please Install the ".length, "company "))
      await eventually(
        async () =>
          (await atrium.request("GET", `/wiki/v1/pages/${page.id}`, { token: t.member.token })).body.text.includes("the company VPN"),
        "edits stored"
      )
      const moved = await atrium.request("GET", `/wiki/v1/comments/${inline.body.id}`, { token: t.viewer.token })
      expect(moved.body.anchor).toEqual({ quote: "the VPN", text: "the company VPN", from: 23, to: 38, detached: false })
      // An editor may anchor with relative positions it computed itself (here: "clone").
      const last = (contentOf(editor.doc).get(2) as Y.XmlElement).get(0) as Y.XmlText
      const at = last.toString().indexOf("clone")
      const encode = (index: number, assoc: number) =>
        Buffer.from(Y.encodeRelativePosition(Y.createRelativePositionFromTypeIndex(last, index, assoc))).toString("base64")
      const positioned = await comment(t.viewer.token, page.id, {
        body: "Which repo?",
        anchor: { start: encode(at, 0), end: encode(at + 5, -1) }
      })
      expect(positioned.status, positioned.text).toBe(201)
      expect(positioned.body.anchor).toMatchObject({ quote: "clone", text: "clone", detached: false })
      // The anchored text is deleted: the comment detaches.
      editor.doc.transact(() => text.delete("Please Install ".length, "the company VPN".length))
      await eventually(async () => {
        const got = await atrium.request("GET", `/wiki/v1/pages/${page.id}/comments?type=inline`, { token: t.viewer.token })
        return got.body.items.find((c: { id: string }) => c.id === inline.body.id)?.anchor?.detached === true
      }, "the anchor detached")
    } finally {
      await closeEditor(editor)
    }
    expect((await atrium.request("GET", `/wiki/v1/pages/${page.id}/comments?type=page`, { token: t.viewer.token })).body.items).toEqual([])
  })
})
