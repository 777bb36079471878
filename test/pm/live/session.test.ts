/** StreamSession on its own (fake transport and backend): folding of overlapping subscriptions, frame limits, parsing. */
import { describe, expect, it } from "vitest"
import type { ScopeTarget, Viewer } from "../../../actors/pm/Visibility.ts"
import { MAX_PENDING_FRAMES, parseClientFrame, type StreamBackend, StreamSession } from "../../../streams/StreamSession.ts"

const viewer: Viewer = { userId: "u1", workspaceId: "w1", role: "member" }

const harness = (resolveScope: StreamBackend["resolveScope"]) => {
  const frames: Array<Record<string, any>> = []
  const topics = new Set<string>()
  const closed: Array<number> = []
  const backend: StreamBackend = {
    lastDelivered: () => 7,
    flush: () => {},
    resolveScope,
    visiblePrivateSpaces: async () => [],
    readScoped: async () => [],
    oldestSeq: async () => 1,
    maxReplay: 10,
    maxReplayBytes: 10_000
  }
  const session = new StreamSession(
    viewer,
    {
      send: (frame) => frames.push(frame as Record<string, any>),
      join: (topic) => topics.add(topic),
      leave: (topic) => topics.delete(topic),
      close: (code) => closed.push(code)
    },
    backend,
    Promise.resolve()
  )
  const settle = () => new Promise((resolve) => setTimeout(resolve, 10))
  return { session, frames, topics, closed, settle }
}

const targets: Record<string, ScopeTarget> = {
  "workspace:w1": { scope: "workspace", id: "w1", privateSpace: false },
  "space:s1": { scope: "space", id: "s1", spaceId: "s1", privateSpace: false },
  "list:l1": { scope: "list", id: "l1", spaceId: "s1", listId: "l1", privateSpace: false },
  "task:t1": { scope: "task", id: "t1", spaceId: "s1", listId: "l1", privateSpace: false }
}
const resolve: StreamBackend["resolveScope"] = async (_viewer, scope, id) => targets[`${scope}:${id}`]!

describe("StreamSession", () => {
  it("joins only the topics of subscriptions no broader one covers", async () => {
    const { session, topics, settle } = harness(resolve)
    await settle()
    expect([...topics]).toEqual(["pm/a/w1", "pm/u/w1/u1"])
    session.handle({ type: "subscribe", scope: "task", id: "t1" })
    session.handle({ type: "subscribe", scope: "list", id: "l1" })
    await settle()
    expect([...topics].sort()).toEqual(["pm/a/w1", "pm/l/w1/l1", "pm/u/w1/u1"])
    session.handle({ type: "subscribe", scope: "workspace", id: "w1" })
    await settle()
    expect([...topics].sort()).toEqual(["pm/a/w1", "pm/u/w1/u1", "pm/w/w1"])
    session.handle({ type: "unsubscribe", scope: "workspace", id: "w1" })
    session.handle({ type: "unsubscribe", scope: "list", id: "l1" })
    await settle()
    expect([...topics].sort()).toEqual(["pm/a/w1", "pm/t/w1/t1", "pm/u/w1/u1"])
  })

  it(`closes with 4429 when more than ${MAX_PENDING_FRAMES} frames wait`, async () => {
    const { session, closed, settle } = harness(() => new Promise(() => {}))
    await settle()
    for (let i = 0; i <= MAX_PENDING_FRAMES; i++) session.handle({ type: "subscribe", scope: "task", id: `t${i}` })
    expect(closed).toEqual([4429])
  })

  it("parses client frames strictly", () => {
    expect(parseClientFrame({ type: "subscribe", scope: "list", id: "l-1", lastSeq: 3 })).toEqual({
      type: "subscribe",
      scope: "list",
      id: "l-1",
      lastSeq: 3
    })
    expect(parseClientFrame({ type: "unsubscribe", scope: "list", id: "l-1" })).toEqual({ type: "unsubscribe", scope: "list", id: "l-1" })
    for (const bad of [
      null,
      [],
      "x",
      { type: "subscribe" },
      { type: "subscribe", scope: "list", id: "a b" },
      { type: "subscribe", scope: "list", id: "x", lastSeq: 1.5 },
      { type: "unsubscribe", scope: "list", id: "x", lastSeq: 1 },
      { type: "subscribe", scope: "list", id: "x", extra: true }
    ]) {
      expect(typeof parseClientFrame(bad), JSON.stringify(bad)).toBe("string")
    }
  })
})
