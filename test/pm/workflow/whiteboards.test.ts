/**
 * Whiteboards on the real collab server: a member edits the board's Yjs
 * document, a viewer only follows it, an outsider is refused; comments pinned
 * to elements follow them through concurrent moves; templates save a board
 * and start new ones with its content.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Y from "yjs"
import { acknowledged, connectEditor, synced, type TestEditor } from "../../support/collabAtrium.ts"
import { type PmAtrium, startPmAtrium } from "../work/support/pmAtrium.ts"
import { eventually, workspaceWithList } from "./support.ts"

let atrium: PmAtrium
let w: Awaited<ReturnType<typeof workspaceWithList>>
const editors: Array<TestEditor> = []

beforeAll(async () => {
  atrium = await startPmAtrium()
  w = await workspaceWithList(atrium)
})
afterAll(async () => {
  for (const editor of editors) editor.destroy()
  await atrium?.close()
})

const open = (url: string, name: string, token: string) => {
  const editor = connectEditor(url, name, token, { awareness: false })
  editors.push(editor)
  return editor
}
const place = (editor: TestEditor, id: string, x: number, y: number) =>
  editor.doc.transact(() => {
    const elements = editor.doc.getMap<Y.Map<unknown>>("elements")
    const element = elements.get(id) ?? new Y.Map<unknown>()
    if (!elements.has(id)) {
      element.set("type", "sticky")
      elements.set(id, element)
    }
    element.set("x", x)
    element.set("y", y)
  })

describe("whiteboards", () => {
  it("serves a board as a live document: members edit, viewers follow, outsiders are refused", async () => {
    const session = await w.call("POST", `/v1/workspaces/${w.workspaceId}/whiteboards`, { name: "Planning", spaceId: w.spaceId })
    expect(session).toMatchObject({ protocol: "hocuspocus", right: "edit", documentName: `whiteboard:${session.whiteboard.id}` })
    const viewerSession = await w.call("POST", `/v1/workspaces/${w.workspaceId}/whiteboards`, { whiteboardId: session.whiteboard.id }, 201)
    expect(viewerSession.whiteboard.id).toBe(session.whiteboard.id)
    const asViewer = await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/whiteboards`, {
      token: w.viewer.token,
      body: { whiteboardId: session.whiteboard.id }
    })
    expect(asViewer.body.right).toBe("read")

    const url = session.url.replace(/^ws:\/\/[^/]+/, atrium.origin.replace(/^http/, "ws"))
    const owner = open(url, session.documentName, w.owner.token)
    const viewer = open(url, session.documentName, w.viewer.token)
    await synced(owner)
    await synced(viewer)
    place(owner, "sticky-1", 100, 50)
    await acknowledged(owner)
    await eventually(() => (viewer.doc.getMap("elements").has("sticky-1") ? true : undefined))
    // The viewer's edit is refused by the server: the owner never sees it.
    place(viewer, "sticky-2", 1, 1)
    place(owner, "sticky-3", 5, 5)
    await acknowledged(owner)
    await eventually(() => (viewer.doc.getMap("elements").has("sticky-3") ? true : undefined))
    expect(owner.doc.getMap("elements").has("sticky-2")).toBe(false)

    // API keys: whiteboards:read follows, whiteboards:write edits, anything else is refused by the collab server.
    const keyWith = async (scopes: Array<string>) =>
      (await w.call("POST", "/v1/api-keys", { workspaceId: w.workspaceId, name: scopes.join(" "), scopes })).key as string
    const readKey = await keyWith(["whiteboards:read"])
    const asKey = await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/whiteboards`, {
      apiKey: readKey,
      body: { whiteboardId: session.whiteboard.id }
    })
    expect(asKey.body.right).toBe("read")
    expect(
      (await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/whiteboards`, { apiKey: readKey, body: { name: "Nope" } })).status
    ).toBe(403)
    const follower = open(url, session.documentName, readKey)
    await synced(follower)
    const tasksKey = open(url, session.documentName, await keyWith(["tasks:read"]))
    await eventually(() => (tasksKey.authFailures.length > 0 || tasksKey.closes.length > 0 ? true : undefined))
    expect(tasksKey.provider.isSynced).toBe(false)

    const outsider = open(url, session.documentName, w.outsider.token)
    await eventually(() => (outsider.authFailures.length > 0 || outsider.closes.length > 0 ? true : undefined))
    expect(outsider.provider.isSynced).toBe(false)
    expect((await atrium.request("GET", `/pm/v1/whiteboards/${session.whiteboard.id}/comments`, { token: w.outsider.token })).status).toBe(
      404
    )
  })

  it("keeps comments pinned to their element through concurrent moves, with threads and resolution", async () => {
    const session = await w.call("POST", `/v1/workspaces/${w.workspaceId}/whiteboards`, { name: "Pins" })
    const boardId = session.whiteboard.id
    const url = `${atrium.origin.replace(/^http/, "ws")}/wiki/v1/collab`
    const alice = open(url, session.documentName, w.owner.token)
    const bob = open(url, session.documentName, w.member.token)
    await synced(alice)
    await synced(bob)
    place(alice, "card-7", 100, 100)
    await acknowledged(alice)
    await eventually(() => (bob.doc.getMap("elements").has("card-7") ? true : undefined))

    // Bob moves the card while Alice pins a comment to it.
    const comment = w.call("POST", `/v1/whiteboards/${boardId}/comments`, {
      elementId: "card-7",
      offsetX: 10,
      offsetY: -5,
      text: "Split this?"
    })
    place(bob, "card-7", 400, 250)
    place(alice, "card-7", 410, 260)
    const created = await comment
    await acknowledged(bob)
    await acknowledged(alice)
    await eventually(() =>
      alice.doc.getMap<Y.Map<number>>("elements").get("card-7")!.get("x") ===
      bob.doc.getMap<Y.Map<number>>("elements").get("card-7")!.get("x")
        ? true
        : undefined
    )
    const final = alice.doc.getMap<Y.Map<number>>("elements").get("card-7")!
    const got = await w.call("GET", `/v1/whiteboards/${boardId}/comments/${created.id}`)
    expect(got.pin).toMatchObject({
      elementId: "card-7",
      offsetX: 10,
      offsetY: -5,
      present: true,
      x: final.get("x")! + 10,
      y: final.get("y")! - 5
    })

    const reply = await atrium.request("POST", `/pm/v1/whiteboards/${boardId}/comments`, {
      token: w.member.token,
      body: { elementId: "elsewhere", text: "Yes", parentCommentId: created.id }
    })
    expect(reply.status).toBe(201)
    expect(reply.body.pin.elementId).toBe("card-7")
    const onCard = await w.call("GET", `/v1/whiteboards/${boardId}/elements/card-7/comments`)
    expect(onCard.items).toHaveLength(2)

    // Only the author edits; anyone resolves; resolving the thread resolves its replies.
    const foreign = await atrium.request("PATCH", `/pm/v1/whiteboards/${boardId}/comments/${created.id}`, {
      token: w.member.token,
      body: { text: "hijack" }
    })
    expect(foreign.status).toBe(403)
    await atrium.request("POST", `/pm/v1/whiteboards/${boardId}/comments/${created.id}/resolve`, {
      token: w.member.token,
      body: { resolved: true }
    })
    expect((await w.call("GET", `/v1/whiteboards/${boardId}/comments?resolved=false`)).items).toHaveLength(0)

    // The element deleted: the pin says so.
    alice.doc.getMap("elements").delete("card-7")
    await acknowledged(alice)
    const orphan = await w.call("GET", `/v1/whiteboards/${boardId}/comments/${created.id}`)
    expect(orphan.pin).toMatchObject({ present: false, x: null })
    await w.call("DELETE", `/v1/whiteboards/${boardId}/comments/${created.id}`, undefined, 204)
    expect((await w.call("GET", `/v1/whiteboards/${boardId}/comments`)).items).toHaveLength(0)

    const bad = await atrium.request("POST", `/pm/v1/whiteboards/${boardId}/comments`, {
      token: w.owner.token,
      body: { elementId: "a b", text: " " }
    })
    expect(bad.status).toBe(400)
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["body.elementId", "body.text"])
  })

  it("saves a board as a template and starts new boards from it", async () => {
    const session = await w.call("POST", `/v1/workspaces/${w.workspaceId}/whiteboards`, { name: "Retro" })
    const url = `${atrium.origin.replace(/^http/, "ws")}/wiki/v1/collab`
    const editor = open(url, session.documentName, w.owner.token)
    await synced(editor)
    place(editor, "went-well", 0, 0)
    place(editor, "to-improve", 300, 0)
    await acknowledged(editor)
    const template = await w.call("POST", `/v1/workspaces/${w.workspaceId}/whiteboard-templates`, {
      whiteboardId: session.whiteboard.id,
      name: "Retro"
    })
    expect(template).toMatchObject({ name: "Retro", elementCount: 2 })
    expect((await w.call("GET", `/v1/workspaces/${w.workspaceId}/whiteboard-templates`)).items.map((t: { id: string }) => t.id)).toContain(
      template.id
    )

    const board = await w.call("POST", `/v1/workspaces/${w.workspaceId}/whiteboard-templates/${template.id}/instantiate`, {
      name: "Sprint 9 retro"
    })
    expect(board).toMatchObject({ name: "Sprint 9 retro", templateId: template.id })
    const fresh = open(url, board.documentName, w.member.token)
    await synced(fresh)
    await eventually(() => (fresh.doc.getMap("elements").size === 2 ? true : undefined))
    expect(fresh.doc.getMap<Y.Map<number>>("elements").get("to-improve")!.get("x")).toBe(300)

    expect(
      (
        await atrium.request("POST", `/pm/v1/workspaces/${w.workspaceId}/whiteboard-templates/${template.id}/instantiate`, {
          token: w.viewer.token,
          body: { name: "x" }
        })
      ).status
    ).toBe(403)
    expect(
      (
        await atrium.request("POST", `/pm/v1/workspaces/${w.otherWorkspaceId}/whiteboard-templates/${template.id}/instantiate`, {
          token: w.outsider.token,
          body: { name: "x" }
        })
      ).status
    ).toBe(404)
  })
})
