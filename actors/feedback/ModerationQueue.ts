/**
 * What waits for a board's moderators, gathered from the two writers: the
 * Board actor's pending feature requests (its memory) and pending comments
 * (its rows), and the desk's pending bug reports and bug comments. Each
 * item carries spam markers: a moderator's, or the heuristics' (links,
 * shouting, stock spam phrases, repeated text).
 */
import { Effect } from "effect"
import { query } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { iso } from "../wiki/WikiQueries.ts"
import { Board } from "./Board.ts"
import { pendingBugItems, spamMarks } from "./DeskQueries.ts"
import type { ModerationItem, ModerationKind } from "./DeskRecords.ts"
import { shortBugId } from "./DeskRecords.ts"
import { shortIdOf } from "./FeedbackModel.ts"

const SPAM_PHRASES = /\b(viagra|casino|crypto giveaway|free money|buy now|work from home|click here|seo services|cheap pills|earn \$\d+)\b/i

/** Why a text looks like spam (empty: it does not). */
export const spamSignals = (text: string): Array<string> => {
  const reasons: Array<string> = []
  if ((text.match(/https?:\/\//gi) ?? []).length >= 3) reasons.push("many links")
  const letters = text.replace(/[^A-Za-z]/g, "")
  if (letters.length >= 20 && letters.replace(/[^A-Z]/g, "").length / letters.length > 0.7) reasons.push("shouting")
  if (SPAM_PHRASES.test(text)) reasons.push("spam phrase")
  if (/(.)\1{9,}/u.test(text)) reasons.push("repeated characters")
  return reasons
}

interface Raw {
  readonly id: string
  readonly kind: ModerationKind
  readonly shortId: string | null
  readonly authorId: string | null
  readonly authorName: string | null
  readonly title: string
  readonly excerpt: string
  readonly createdAt: string
}

const pendingComments = (boardId: string) =>
  query<{ id: string; body: string; author_id: string | null; author_name: string | null; created_at: string; request_id: string }>(
    `SELECT id, body, author_id, author_name, created_at, request_id FROM feedback_comments
      WHERE board_id = $1 AND moderation_state = 'pending' AND deleted_at IS NULL ORDER BY created_at`,
    [boardId]
  )

/** Everything waiting on the board, oldest first. */
export const moderationQueue = (boardId: string) =>
  Effect.gen(function* () {
    const system = yield* ActorSystem
    const { items: requests } = yield* Board.client(system)(boardId).requests({
      viewerId: null,
      team: true,
      includeMerged: false,
      sort: "old",
      offset: 0,
      limit: 100_000
    })
    const byId = new Map(requests.map((r) => [r.id, r]))
    const raw: Array<Raw> = requests
      .filter((r) => r.moderationState === "pending")
      .map((r) => ({
        id: r.id,
        kind: "featureRequest",
        shortId: shortIdOf(r.number),
        authorId: r.authorId,
        authorName: r.authorName,
        title: r.title,
        excerpt: r.text.slice(0, 500),
        createdAt: r.createdAt
      }))
    for (const c of yield* pendingComments(boardId)) {
      const request = byId.get(c.request_id)
      raw.push({
        id: c.id,
        kind: "comment",
        shortId: request ? shortIdOf(request.number) : null,
        authorId: c.author_id,
        authorName: c.author_name,
        title: request?.title ?? "",
        excerpt: c.body.slice(0, 500),
        createdAt: iso(c.created_at)
      })
    }
    for (const b of yield* pendingBugItems(boardId)) {
      raw.push({
        id: b.id,
        kind: b.kind as ModerationKind,
        shortId: shortBugId(Number(b.number)),
        authorId: b.author_id,
        authorName: b.author_name,
        title: b.title,
        excerpt: b.excerpt,
        createdAt: iso(b.created_at)
      })
    }
    const marks = yield* spamMarks(boardId)
    return raw
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .map((item): ModerationItem => {
        const mark = marks.get(item.id)
        const reasons = [...(mark !== undefined ? [`moderator: ${mark}`] : []), ...spamSignals(`${item.title} ${item.excerpt}`)]
        return { ...item, boardId, spam: reasons.length > 0, spamReasons: reasons }
      })
  })
