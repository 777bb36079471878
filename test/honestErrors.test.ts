/**
 * Error codes tell the truth: state that cannot be persisted is a defect
 * (500, logged with the actor's address), never "moving between nodes"; 503
 * with Retry-After only for the transient cases, each saying which.
 */
import { Cause, Effect, Exit, Layer, Logger, References } from "effect"
import { describe, expect, it } from "vitest"
import { fromFailure } from "../facade/HttpError.ts"
import { ActorDefect, ActorTimeout, ActorUnavailable } from "../runtime/ActorError.ts"
import { ActorStore, type ActorStoreShape } from "../runtime/ActorStore.ts"
import { ActorSystem } from "../runtime/ActorSystem.ts"
import { layerInProcess } from "../runtime/InProcessTransport.ts"
import * as MemoryActorStore from "../runtime/MemoryActorStore.ts"
import { Counter, NodeInfo } from "./support/runtimeActors.ts"

describe("a state that cannot be persisted", () => {
  it("fails its request with ActorDefect, logged with the actor's address, and keeps the persisted state", async () => {
    const inner = MemoryActorStore.make()
    let failSaves = false
    const store: ActorStoreShape = {
      ...inner,
      save: (address, state, expected) =>
        failSaves ? Effect.die(new Error('invalid byte sequence for encoding "UTF8": 0x00')) : inner.save(address, state, expected)
    }
    const logs: Array<{ level: string; annotations: Record<string, unknown> }> = []
    const logger = Logger.make<unknown, void>((o) => {
      logs.push({ level: o.logLevel, annotations: o.fiber.getRef(References.CurrentLogAnnotations) })
    })
    const layer = layerInProcess([Counter], {}).pipe(
      Layer.provide(Layer.mergeAll(Layer.succeed(ActorStore, store), Layer.succeed(NodeInfo, { name: "local" }))),
      Layer.provide(Logger.layer([logger]))
    )
    const id = `c-${Math.random().toString(36).slice(2, 10)}`
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.provide(
          Effect.gen(function* () {
            const system = yield* ActorSystem
            yield* system.ask(Counter, id, "Increment", { by: 1 })
            failSaves = true
            const failed = yield* Effect.exit(system.ask(Counter, id, "Increment", { by: 1 }))
            failSaves = false
            const after = yield* system.ask(Counter, id, "Get", {})
            return { failed, after }
          }),
          layer
        )
      ) as Effect.Effect<{ failed: Exit.Exit<unknown, unknown>; after: { count: number } }, unknown>
    )
    expect(Exit.isFailure(outcome.failed)).toBe(true)
    const error = Exit.isFailure(outcome.failed) ? Cause.squash(outcome.failed.cause) : undefined
    expect(error).toBeInstanceOf(ActorDefect)
    expect((error as ActorDefect).message).toContain("could not be persisted")
    expect(outcome.after.count).toBe(1)
    const logged = logs.find((line) => line.level === "Error")
    expect(logged?.annotations.actor).toBe(`Counter/${id}`)
  })
})

describe("a state that cannot be loaded", () => {
  const askWith = (load: ActorStoreShape["load"]) => {
    const inner = MemoryActorStore.make()
    const layer = layerInProcess([Counter], {}).pipe(
      Layer.provide(Layer.mergeAll(Layer.succeed(ActorStore, { ...inner, load }), Layer.succeed(NodeInfo, { name: "local" }))),
      Layer.provide(Logger.layer([Logger.make(() => {})]))
    )
    return Effect.runPromise(
      Effect.scoped(
        Effect.provide(
          Effect.flatMap(ActorSystem, (system) => Effect.exit(system.ask(Counter, "c-load", "Get", {}))),
          layer
        )
      )
    )
  }
  const errorOf = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined)

  it("is transient when the database does not answer: 503 naming the storage", async () => {
    const error = errorOf(await askWith(() => Effect.die(new Error("connection refused"))))
    expect(error).toBeInstanceOf(ActorUnavailable)
    expect((error as ActorUnavailable).reason).toBe("storage")
    expect(fromFailure(error as ActorUnavailable)).toMatchObject({ status: 503, headers: { "retry-after": "1" } })
  })

  it("is a defect when the stored state no longer decodes: 500", async () => {
    const error = errorOf(await askWith(() => Effect.succeed({ state: { count: "not a number" }, version: 1 })))
    expect(error).toBeInstanceOf(ActorDefect)
    expect(fromFailure(error as ActorDefect).status).toBe(500)
  })
})

describe("the HTTP answer of each runtime failure", () => {
  const address = { kind: "Workspace", id: "w-1" }

  it("a defect is a 500 with no retry", () => {
    const answer = fromFailure(new ActorDefect({ address, message: "state could not be persisted: invalid byte sequence" }))
    expect(answer.status).toBe(500)
    expect(answer.headers?.["retry-after"]).toBeUndefined()
    expect(answer.message).not.toMatch(/moving|retry/i)
  })

  it("the transient cases are 503 with Retry-After, each saying which", () => {
    const handover = fromFailure(new ActorUnavailable({ address, message: "no node served shard 3 within 5000 ms", reason: "handover" }))
    const draining = fromFailure(new ActorUnavailable({ address, message: "actor system is draining", reason: "draining" }))
    const interrupted = fromFailure(
      new ActorUnavailable({ address, message: "activation stopped while processing", reason: "interrupted" })
    )
    const timeout = fromFailure(new ActorTimeout({ address, millis: 5000 }))
    for (const answer of [handover, draining, interrupted, timeout]) {
      expect(answer.status).toBe(503)
      expect(answer.headers?.["retry-after"]).toBe("1")
    }
    expect(handover.message).toMatch(/moving between nodes/)
    expect(draining.message).toMatch(/shutting down/)
    expect(interrupted.message).toMatch(/outcome is unknown/)
    expect(timeout.message).toMatch(/No reply from Workspace within 5000 ms/)
    expect(new Set([handover.message, draining.message, interrupted.message, timeout.message]).size).toBe(4)
  })
})
