/**
 * Who may do what on a board's desk (bug reports, milestones, changelog,
 * moderation, private feedback), on the Board actor's rules
 * (`FeedbackAccess`): "see" — anyone who may see the board; "post" — who
 * may post on it, unless a moderator blocked them; "team" — workspace and
 * board members; "admin" — board and workspace admins (moderation).
 */
import { Effect } from "effect"
import { authorStanding, boardOfBug, boardOfChangelogEntry, boardOfMilestone } from "../../actors/feedback/DeskQueries.ts"
import type { OptionKind } from "../../actors/feedback/FeedbackModel.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { reject } from "../../runtime/Rejection.ts"
import { refusalCode } from "../HttpError.ts"
import type { RequestContext } from "../Operation.ts"
import { type BoardCaller, type BoardNeed, boardAccess } from "./FeedbackAccess.ts"

export type { BoardCaller }

/** The board and the caller's standing on it; 404 when they may not see it, 403 without `need`. */
export const onBoard = Effect.fnUntraced(function* (context: RequestContext, boardId: string, need: BoardNeed) {
  const caller = yield* boardAccess(context, boardId, need)
  if (need === "post" && !caller.team) {
    const standing = yield* orDieStore(authorStanding(boardId, `user:${caller.userId}`))
    if (standing === "blocked") return yield* reject("forbidden", "A moderator blocked you from posting on this board")
  }
  return caller
})

const via =
  (find: (id: string) => Effect.Effect<string | undefined, any, any>, what: string) =>
  (context: RequestContext, id: string, need: BoardNeed) =>
    Effect.gen(function* () {
      const boardId: string | undefined = yield* orDieStore(find(id))
      if (boardId === undefined) return yield* reject("not_found", `No such ${what}`)
      return yield* onBoard(context, boardId, need).pipe(
        // Whoever may not see the board learns nothing of what is on it.
        Effect.catchIf(
          (e) => refusalCode(e) === "not_found",
          () => Effect.fail(reject("not_found", `No such ${what}`))
        )
      )
    })

export const onBug = via(boardOfBug, "bug report")
export const onMilestone = via(boardOfMilestone, "milestone")
export const onChangelogEntry = via(boardOfChangelogEntry, "changelog entry")

/**
 * Whether a post or comment by this caller waits in the moderation queue
 * (moderation on, not the team, not verified by a moderator); an author a
 * moderator blocked may not post at all (403).
 */
export const heldFor = Effect.fnUntraced(function* (caller: BoardCaller) {
  if (caller.team) return "approved" as const
  const standing = yield* orDieStore(authorStanding(caller.view.board.id, `user:${caller.userId}`))
  if (standing === "blocked") return yield* reject("forbidden", "A moderator blocked you from posting on this board")
  if (!caller.view.board.settings.moderation) return "approved" as const
  return standing === "verified" ? ("approved" as const) : ("pending" as const)
})

const label: Record<OptionKind, string> = {
  category: "category",
  product_area: "product area",
  status: "status",
  bug_status: "bug status level",
  severity: "severity level"
}

/** A board option id (category, level…) must be one of the board's, else 400 naming the field. */
export const checkOption = (caller: BoardCaller, kind: OptionKind, id: string | null | undefined, path: string) =>
  id === undefined || id === null || caller.view.options.some((o) => o.kind === kind && o.id === id)
    ? Effect.void
    : Effect.fail(
        reject("invalid", `Invalid ${path}: no such ${label[kind]} on this board`, [
          { path, message: `no such ${label[kind]} on this board` }
        ])
      )

/** The option's name, for readouts by name (Lite). */
export const optionName = (caller: BoardCaller, id: string | null) =>
  id === null ? null : (caller.view.options.find((o) => o.id === id)?.name ?? null)
