/** Shared pieces of the feedback operations: asking a board's actor, path parameters, pagination. */
import { Effect, Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Board } from "../../actors/feedback/Board.ts"
import type { PayloadOf, SuccessOf } from "../../runtime/Actor.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"

type Messages = keyof (typeof Board)["messages"] & string

/** Asks the board's actor. */
export const askBoard = <Tag extends Messages>(boardId: string, tag: Tag, payload: PayloadOf<typeof Board, Tag>) =>
  Effect.flatMap(ActorSystem, (system) => system.ask(Board, boardId, tag, payload)) as Effect.Effect<
    SuccessOf<typeof Board, Tag>,
    import("../../runtime/Rejection.ts").Rejection | import("../../runtime/ActorError.ts").ActorError,
    ActorSystem
  >

export const BoardParams = Schema.Struct({ boardId: Id })
export const FeatureRequestParams = Schema.Struct({ featureRequestId: Id })

export const Limit = Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 200 })).annotate({
  description: "Page size (1–200, default 50)"
})
export const Offset = Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 0, maximum: 1_000_000 })).annotate({
  description: "How many to skip (default 0)"
})

export const page = <A>(result: { readonly items: ReadonlyArray<A>; readonly total: number }, offset: number) => ({
  items: result.items,
  total: result.total,
  nextOffset: offset + result.items.length < result.total ? offset + result.items.length : null
})
