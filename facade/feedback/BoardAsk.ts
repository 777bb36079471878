/** Shared pieces of the feedback operations: the board's actors as clients, path parameters, pagination. */
import { Schema } from "effect"
import { Id } from "../../actors/Fields.ts"
import { Board } from "../../actors/feedback/Board.ts"
import { FeedbackDesk } from "../../actors/feedback/FeedbackDesk.ts"
import { clientIn } from "../../runtime/ActorSystem.ts"

/** The board's actor, as a typed client asking through the ActorSystem in context: `board(id).view({})`. */
export const board = clientIn(Board)

/** The board's feedback desk, likewise: `desk(id).createBug({ by, input })`. */
export const desk = clientIn(FeedbackDesk)

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
