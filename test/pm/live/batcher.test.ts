/**
 * StreamBatcher's ordering rule, checked against every socket a client could
 * open: random bursts of events (and notifications) over a workspace's
 * spaces, lists and tasks; sockets following any set of topics that
 * StreamSession's folding allows (no two topics of one event). Whatever
 * flushes early or late, each socket receives exactly its events, in seq
 * order, and the wide topics carry batches; plain topics get the same events
 * one frame each.
 */
import { fc, it } from "@fast-check/vitest"
import { describe, expect } from "vitest"
import { StreamBatcher } from "../../../streams/StreamBatcher.ts"

const WS = "w1"
/** Three spaces, two lists each, two tasks per list. */
const tasks = Array.from({ length: 12 }, (_, i) => ({ space: `s${Math.floor(i / 4)}`, list: `l${Math.floor(i / 2)}`, task: `t${i}` }))
const topicsOfTask = (i: number) => {
  const where = tasks[i]!
  return ["wa", "w", `s/${where.space}`, `l/${where.list}`, `t/${where.task}`]
}
const allTopics = [...new Set(tasks.flatMap((_, i) => topicsOfTask(i)))]
/** Whether a socket may follow both (they never carry the same event). */
const compatible = (a: string, b: string) => !tasks.some((_, i) => topicsOfTask(i).includes(a) && topicsOfTask(i).includes(b))

type Step = { readonly kind: "event"; readonly task: number } | { readonly kind: "note" } | { readonly kind: "flush" }
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: tasks.length - 1 }).map((task) => ({ kind: "event" as const, task })) },
  { weight: 1, arbitrary: fc.constant({ kind: "note" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "flush" as const }) }
)

/** A socket's topics: a random pick, folded like StreamSession (drop any topic overlapping one already taken). */
const socket = fc.shuffledSubarray(allTopics, { minLength: 1, maxLength: 6 }).map((picked) => {
  const taken: Array<string> = ["u"]
  for (const topic of picked) if (taken.every((other) => other === "u" || compatible(other, topic))) taken.push(topic)
  return taken
})

/** The plain topic beside a batched one in these tests. */
const plain = (topic: string) => `p/${topic}`

describe("StreamBatcher", () => {
  it.prop([fc.array(step, { minLength: 1, maxLength: 80 }), fc.array(socket, { minLength: 1, maxLength: 12 })], { numRuns: 300 })(
    "every socket receives exactly its events, in seq order",
    (steps, sockets) => {
      const published: Array<{ topic: string; frames: Array<{ seq?: number }> }> = []
      const batcher = new StreamBatcher(1_000_000, (topic, frame) => {
        const value = frame as { type?: string; frames?: Array<{ seq?: number }>; seq?: number }
        published.push({ topic, frames: value.type === "batch" ? value.frames! : [value] })
      })
      let seq = 0
      const expected = new Map<string, Array<number>>()
      for (const s of steps) {
        if (s.kind === "flush") batcher.flush(WS)
        else if (s.kind === "note") batcher.add(WS, ["u"], { type: "notification" }, "{}", false, ["p/u"])
        else {
          const frame = { seq: ++seq }
          const topics = topicsOfTask(s.task)
          for (const topic of topics) expected.set(topic, [...(expected.get(topic) ?? []), seq])
          batcher.add(WS, topics, frame, JSON.stringify(frame), true, topics.map(plain))
        }
      }
      batcher.flush(WS)
      batcher.close()
      for (const topics of sockets) {
        const received = published
          .filter((p) => topics.includes(p.topic))
          .flatMap((p) => p.frames)
          .flatMap((f) => (f.seq === undefined ? [] : [f.seq]))
        const wanted = [...new Set(topics.flatMap((topic) => expected.get(topic) ?? []))].sort((a, b) => a - b)
        expect(received).toEqual(wanted)
      }
      const notes = published.filter((p) => p.topic === "u").flatMap((p) => p.frames)
      expect(notes.length).toBe(steps.filter((s) => s.kind === "note").length)
      // Plain sockets: the same events, each as its own frame, in seq order (publish order is a socket's order).
      for (const topics of sockets) {
        const followed = topics.map(plain)
        const received = published.filter((p) => followed.includes(p.topic))
        expect(received.every((p) => p.frames.length === 1)).toBe(true)
        const wanted = [...new Set(topics.flatMap((topic) => expected.get(topic) ?? []))].sort((a, b) => a - b)
        expect(received.flatMap((p) => p.frames).flatMap((f) => (f.seq === undefined ? [] : [f.seq]))).toEqual(wanted)
      }
      expect(published.filter((p) => p.topic === "p/u").length).toBe(notes.length)
    }
  )

  it.prop([fc.array(fc.integer({ min: 0, max: tasks.length - 1 }), { minLength: 2, maxLength: 60 })])(
    "a burst reaches the workspace topic as one frame, whatever tasks it touches",
    (burst) => {
      const published: Array<{ topic: string; frame: { type?: string; frames?: Array<unknown> } }> = []
      const batcher = new StreamBatcher(1_000_000, (topic, frame) => published.push({ topic, frame: frame as never }))
      burst.forEach((task, i) => {
        batcher.add(WS, topicsOfTask(task), { seq: i + 1 }, "{}")
      })
      batcher.flush(WS)
      batcher.close()
      const wide = published.filter((p) => p.topic === "wa")
      expect(wide.length).toBe(1)
      expect(wide[0]!.frame.frames?.length).toBe(burst.length)
    }
  )
})
