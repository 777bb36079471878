/**
 * Shipping the feature requests a published changelog entry names: the
 * Board actor moves each to the board's shipped status (which notifies the
 * request's subscribers — voting subscribes — as each chose for the board),
 * and voters who unsubscribed since, or requests already shipped, get the
 * "shipped" notice here. Runs after the desk's commit, before its reply.
 * An entry announces each request once: published again after being taken
 * back to a draft, it leaves the requests it shipped before alone.
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { Board } from "./Board.ts"
import { commitBoardWrite } from "./BoardLog.ts"
import { shortIdOf } from "./FeedbackModel.ts"

/** Users to tell about a request: its subscribers and its voters with an account, minus `by` and those who turned notices off. */
const audience = (boardId: string, requestId: string, by: string) =>
  query<{ user_id: string; subscribed: boolean }>(
    `SELECT u.user_id, bool_or(u.subscribed) AS subscribed FROM (
        SELECT user_id, true AS subscribed FROM feedback_subscribers WHERE request_id = $1
        UNION ALL SELECT user_id, false FROM feedback_votes WHERE request_id = $1 AND user_id IS NOT NULL) u
      LEFT JOIN feedback_notification_preferences p ON p.user_id = u.user_id AND p.board_id = $2
      WHERE u.user_id <> $3 AND coalesce(p.mode, 'instant') <> 'off'
      GROUP BY u.user_id`,
    [requestId, boardId, by]
  )

/** Ships the requests; the number of people notified. */
export const shipRequests = (
  boardId: string,
  requestIds: ReadonlyArray<string>,
  by: string,
  entry: { readonly title: string; readonly entryId: string }
) =>
  Effect.gen(function* () {
    if (requestIds.length === 0) return 0
    const system = yield* ActorSystem
    const view = yield* Board.client(system)(boardId).view({})
    const shipped = view.options.filter((o) => o.kind === "status" && o.type === "shipped").sort((a, b) => a.position - b.position)[0]
    let notified = 0
    for (const requestId of requestIds) {
      // Announced by this entry already (published before, taken back, published again): once per request.
      if (
        (yield* query("SELECT 1 FROM feedback_changelog_shipped WHERE entry_id = $1 AND request_id = $2", [entry.entryId, requestId]))
          .length > 0
      )
        continue
      const request = yield* Board.client(system)(boardId).request({ requestId }).pipe(Effect.option)
      if (request._tag === "None" || request.value.mergedInto !== null) continue
      const people = yield* audience(boardId, requestId, by)
      notified += people.length
      const moved = shipped !== undefined && request.value.statusId !== shipped.id
      if (moved) {
        yield* Board.client(system)(boardId).changeStatus({ by, requestId, statusId: shipped.id, note: `Shipped: ${entry.title}` })
      }
      // Whoever the status change did not tell (voters who unsubscribed, or everyone when it was shipped already).
      const rest = people.filter((p) => !moved || !p.subscribed).map((p) => p.user_id)
      if (rest.length > 0) {
        yield* commitBoardWrite(
          boardId,
          view.board.workspaceId,
          by,
          Effect.succeed({
            result: null,
            events: [{ type: "request.shipped", entityId: requestId, data: { changelogEntryId: entry.entryId } }],
            notices: [
              {
                requestId,
                reason: "shipped" as const,
                title: `${shortIdOf(request.value.number)} ${request.value.title}: shipped — ${entry.title}`,
                userIds: rest
              }
            ]
          })
        )
      }
      yield* query("INSERT INTO feedback_changelog_shipped (entry_id, request_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [
        entry.entryId,
        requestId
      ])
    }
    return notified
  })
