/**
 * Votes and merges. One row per (request, voter key) — a user, a customer a
 * team member voted for (by e-mail), or an anonymous fingerprint — so a voter
 * counts once; counters are recounted from the rows (a group of votes moves
 * them by exactly what it changed) while the request's row is locked, so
 * votes and merges racing (also from another board's actor, for cross-board
 * merges) never lose or double a vote.
 *
 * A merge moves the duplicate's voters and subscribers to the original (a
 * voter on both keeps one vote), marks the duplicate `merged_into`, and keeps
 * what it changed in `feedback_merges` so `unmerge` can put it back.
 */
import { createHash, randomUUID } from "node:crypto"
import { Effect, Exit, Schema } from "effect"
import { query, SqlError } from "../../persistence/Sql.ts"
import { normalizeEmail } from "../Fields.ts"
import { usersByEmails } from "../identity/IdentityQueries.ts"
import type { BoardEvent, WriteBody } from "./BoardLog.ts"
import { type BoardState, type RequestRecord, shortIdOf } from "./FeedbackModel.ts"
import { openRequest, reread, requestOf, withRequests } from "./RequestWrites.ts"
import {
  AlreadyVoted,
  AnonymousVoteLimit,
  AnonymousVotesOff,
  type BoardRefusal,
  MergeTargetMerged,
  MergeTargetNotFound,
  NoMergeToUndo,
  NotVoted,
  RequestAlreadyMerged,
  RequestMergeIntoItself,
  RequestNotMerged
} from "./FeedbackErrors.ts"

export const Voter = Schema.Union([
  Schema.Struct({ kind: Schema.Literal("user"), userId: Schema.String }),
  /**
   * A customer a team member (`castBy`) voted for, by e-mail; `name` as the team member gave it. The Board
   * actor looks the e-mail up when it commits: a customer with an account counts as that user (and is named
   * as the account when no name was given).
   */
  Schema.Struct({ kind: Schema.Literal("customer"), email: Schema.String, name: Schema.NullOr(Schema.String), castBy: Schema.String }),
  /** A visitor without an account: a browser fingerprint and the caller's IP address (only its hash is stored). */
  Schema.Struct({ kind: Schema.Literal("anonymous"), fingerprint: Schema.String, ip: Schema.String })
])
export type Voter = typeof Voter.Type

/** A voter as counted: a customer with their account (if any) looked up. */
export type CastVoter =
  | Exclude<Voter, { readonly kind: "customer" }>
  | (Extract<Voter, { readonly kind: "customer" }> & { readonly userId: string | null })

export const VoteOutcome = Schema.Struct({
  requestId: Schema.String,
  voteCount: Schema.Number,
  voted: Schema.Boolean,
  /** A customer's name: as given, else their account's. */
  customerName: Schema.optionalKey(Schema.NullOr(Schema.String))
})
export type VoteOutcome = typeof VoteOutcome.Type

const ipHash = (ip: string) => createHash("sha256").update(`feedback-vote:${ip}`).digest("hex")

export const voterKey = (voter: CastVoter): string =>
  voter.kind === "user"
    ? `user:${voter.userId}`
    : voter.kind === "customer"
      ? voter.userId !== null
        ? `user:${voter.userId}`
        : `email:${voter.email.toLowerCase()}`
      : `anon:${createHash("sha256").update(voter.fingerprint).digest("hex")}`

/** Locks the requests' rows until COMMIT (in id order, so two writers never deadlock). */
const lockRequests = (ids: ReadonlyArray<string>) =>
  query("SELECT id FROM feedback_requests WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", [[...ids].sort()])

/** Recounts the request's votes from its rows. */
const recount = (requestId: string) =>
  Effect.map(
    query<{ vote_count: number }>(
      "UPDATE feedback_requests SET vote_count = (SELECT count(*) FROM feedback_votes WHERE request_id = $1) WHERE id = $1 RETURNING vote_count",
      [requestId]
    ),
    (rows) => Number(rows[0]!.vote_count)
  )

const withCount = (state: BoardState, request: RequestRecord, voteCount: number) => withRequests(state, [{ ...request, voteCount }])

const alreadyVoted = new AlreadyVoted()
const notVoted = new NotVoted()

/** Refuses an anonymous vote over the board's hourly limit per IP, or a second one from the same IP on a request (ever). */
const checkAnonymous = (state: BoardState, requestId: string, hash: string) =>
  Effect.gen(function* () {
    if (!state.board.settings.anonymousVoting) {
      return yield* new AnonymousVotesOff()
    }
    const recent = yield* query<{ total: number; here: number }>(
      `SELECT count(*) FILTER (WHERE created_at > now() - interval '1 hour') AS total, count(*) FILTER (WHERE request_id = $3) AS here
         FROM feedback_votes WHERE board_id = $1 AND ip_hash = $2`,
      [state.board.id, hash, requestId]
    )
    if (Number(recent[0]!.here) > 0) return yield* alreadyVoted
    if (Number(recent[0]!.total) >= state.board.settings.anonymousVotesPerHour) {
      return yield* new AnonymousVoteLimit()
    }
  })

export const vote = (state: BoardState, requestId: string, voter: CastVoter): WriteBody<VoteOutcome> =>
  Effect.gen(function* () {
    const request = yield* openRequest(state, requestId)
    yield* lockRequests([requestId])
    const hash = voter.kind === "anonymous" ? ipHash(voter.ip) : null
    if (hash !== null) yield* checkAnonymous(state, requestId, hash)
    const inserted = yield* query(
      `INSERT INTO feedback_votes (id, request_id, board_id, voter_key, user_id, customer_email, customer_name, cast_by, anonymous_fingerprint, ip_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (request_id, voter_key) DO NOTHING RETURNING id`,
      [
        randomUUID(),
        requestId,
        state.board.id,
        voterKey(voter),
        voter.kind === "anonymous" ? null : voter.userId,
        voter.kind === "customer" ? voter.email.toLowerCase() : null,
        voter.kind === "customer" ? voter.name : null,
        voter.kind === "customer" ? voter.castBy : null,
        voter.kind === "anonymous" ? voterKey(voter).slice(5) : null,
        hash
      ]
    )
    if (inserted.length === 0) return yield* alreadyVoted
    const subscriber = voter.kind === "anonymous" ? null : voter.userId
    if (subscriber !== null) {
      yield* query("INSERT INTO feedback_subscribers (request_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING", [requestId, subscriber])
    }
    const voteCount = yield* recount(requestId)
    return {
      result: { requestId, voteCount, voted: true },
      events: [
        {
          type: "request.voted",
          entityId: requestId,
          data: { voteCount, onBehalf: voter.kind === "customer", anonymous: voter.kind === "anonymous" }
        }
      ],
      next: withCount(state, request, voteCount)
    }
  })

export const unvote = (state: BoardState, requestId: string, voter: CastVoter): WriteBody<VoteOutcome> =>
  Effect.gen(function* () {
    const request = yield* openRequest(state, requestId)
    yield* lockRequests([requestId])
    const removed = yield* query("DELETE FROM feedback_votes WHERE request_id = $1 AND voter_key = $2 RETURNING id", [
      requestId,
      voterKey(voter)
    ])
    if (removed.length === 0) return yield* notVoted
    const voteCount = yield* recount(requestId)
    return {
      result: { requestId, voteCount, voted: false },
      events: [{ type: "request.unvoted", entityId: requestId, data: { voteCount } }],
      next: withCount(state, request, voteCount)
    }
  })

/** One vote or withdrawal of a group the Board actor commits together. */
export interface VoteCommand {
  readonly withdraw: boolean
  readonly by: string
  readonly requestId: string
  readonly voter: Voter
}

type Named = {
  readonly index: number
  readonly command: VoteCommand
  readonly voter: Exclude<CastVoter, { readonly kind: "anonymous" }>
  readonly key: string
  readonly pair: string
}

/**
 * One round of a group: votes inserted, withdrawals deleted and the
 * requests' counters moved by as much, in one statement (a (request, voter)
 * pair at most once per round, so the order within it does not matter; the
 * requests' rows are locked, so nothing else moves their votes meanwhile);
 * the pairs it changed and the new counts come back.
 */
const applyRound = (boardId: string, round: ReadonlyArray<Named>) => {
  const casts = round.filter((n) => !n.command.withdraw)
  const withdrawals = round.filter((n) => n.command.withdraw)
  const column = <A>(list: ReadonlyArray<Named>, f: (voter: Named["voter"]) => A) => list.map((n) => f(n.voter))
  return Effect.map(
    query<{ kind: "cast" | "withdrawn" | "count"; id: string; value: string }>(
      `WITH cast_votes AS (
         INSERT INTO feedback_votes (id, request_id, board_id, voter_key, user_id, customer_email, customer_name, cast_by)
         SELECT v.id, v.request_id, $1, v.voter_key, v.user_id, v.email, v.name, v.cast_by
           FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
             AS v (id, request_id, voter_key, user_id, email, name, cast_by)
         ON CONFLICT (request_id, voter_key) DO NOTHING
         RETURNING request_id, voter_key, user_id
       ), subscribed AS (
         INSERT INTO feedback_subscribers (request_id, user_id) SELECT request_id, user_id FROM cast_votes WHERE user_id IS NOT NULL
         ON CONFLICT DO NOTHING
       ), withdrawn AS (
         DELETE FROM feedback_votes f USING unnest($9::text[], $10::text[]) AS w (request_id, voter_key)
          WHERE f.request_id = w.request_id AND f.voter_key = w.voter_key
         RETURNING f.request_id, f.voter_key
       ), counted AS (
         UPDATE feedback_requests r SET vote_count = r.vote_count + d.delta
           FROM (SELECT request_id, sum(delta)::int AS delta
                   FROM (SELECT request_id, 1 AS delta FROM cast_votes UNION ALL SELECT request_id, -1 FROM withdrawn) AS c
                  GROUP BY request_id) AS d
          WHERE r.id = d.request_id
         RETURNING r.id, r.vote_count
       )
       SELECT 'cast' AS kind, request_id AS id, voter_key AS value FROM cast_votes
       UNION ALL SELECT 'withdrawn', request_id, voter_key FROM withdrawn
       UNION ALL SELECT 'count', id, vote_count::text FROM counted`,
      [
        boardId,
        casts.map(() => randomUUID()),
        casts.map((n) => n.command.requestId),
        casts.map((n) => n.key),
        column(casts, (voter) => voter.userId),
        column(casts, (voter) => (voter.kind === "customer" ? voter.email.toLowerCase() : null)),
        column(casts, (voter) => (voter.kind === "customer" ? voter.name : null)),
        column(casts, (voter) => (voter.kind === "customer" ? voter.castBy : null)),
        withdrawals.map((n) => n.command.requestId),
        withdrawals.map((n) => n.key)
      ]
    ),
    (rows) => ({
      changed: new Set(
        rows.filter((row) => row.kind !== "count").map((row) => `${row.kind === "cast" ? "+" : "-"}${row.id}\u0000${row.value}`)
      ),
      counts: new Map(rows.filter((row) => row.kind === "count").map((row) => [row.id, Number(row.value)] as const))
    })
  )
}

/**
 * Votes and withdrawals the Board actor commits in one transaction (group
 * commit), each with its own outcome, as if applied one after the other:
 * anonymous ones first, one by one (their rate limits count the votes before
 * them), then the others in arrival order: their rows locked, then one
 * statement per round (see `applyRound`).
 * Each reply's count is the request's count right after that vote.
 */
export const castVotes = (
  state: BoardState,
  commands: ReadonlyArray<VoteCommand>
): WriteBody<ReadonlyArray<Exit.Exit<VoteOutcome, BoardRefusal>>> =>
  Effect.gen(function* () {
    const outcomes: Array<Exit.Exit<VoteOutcome, BoardRefusal>> = []
    const events: Array<BoardEvent> = []
    let current = state
    const named: Array<Named> = []
    // The customers' accounts, one lookup for the group, in its transaction.
    const emails = [...new Set(commands.flatMap(({ voter }) => (voter.kind === "customer" ? [normalizeEmail(voter.email)] : [])))]
    const accounts = emails.length === 0 ? new Map() : yield* usersByEmails(emails)
    for (const [index, command] of commands.entries()) {
      const open = yield* Effect.exit(openRequest(current, command.requestId))
      if (Exit.isFailure(open)) {
        outcomes[index] = open as Exit.Exit<never, BoardRefusal>
        continue
      }
      if (command.voter.kind !== "anonymous") {
        const account = command.voter.kind === "customer" ? accounts.get(normalizeEmail(command.voter.email)) : undefined
        const voter: Named["voter"] =
          command.voter.kind === "customer"
            ? { ...command.voter, name: command.voter.name ?? account?.name ?? null, userId: account?.id ?? null }
            : command.voter
        const key = voterKey(voter)
        named.push({ index, command, voter, key, pair: `${command.requestId}\u0000${key}` })
        continue
      }
      const written = yield* Effect.exit((command.withdraw ? unvote : vote)(current, command.requestId, command.voter))
      if (Exit.isFailure(written)) {
        const refusal = Exit.findErrorOption(written)
        // Anything but a refusal leaves the transaction unusable: the whole group fails.
        if (refusal._tag === "None" || refusal.value instanceof SqlError) return yield* Effect.failCause(written.cause)
        outcomes[index] = Exit.fail(refusal.value)
        continue
      }
      current = written.value.next ?? current
      events.push(...written.value.events.map((event) => ({ ...event, by: command.by })))
      outcomes[index] = Exit.succeed(written.value.result)
    }
    if (named.length > 0) {
      yield* lockRequests([...new Set(named.map((n) => n.command.requestId))])
      // Rounds in arrival order, a new one whenever a pair comes back (voted, withdrawn, voted again…).
      const applied = new Set<number>()
      const counts = new Map<string, number>()
      let round: Array<Named> = []
      let pairs = new Set<string>()
      const flush = Effect.suspend(() => {
        const taken = round
        round = []
        pairs = new Set()
        return Effect.map(applyRound(current.board.id, taken), ({ changed, counts: after }) => {
          for (const n of taken) if (changed.has(`${n.command.withdraw ? "-" : "+"}${n.pair}`)) applied.add(n.index)
          for (const [id, count] of after) counts.set(id, count)
        })
      })
      for (const n of named) {
        if (pairs.has(n.pair)) yield* flush
        round.push(n)
        pairs.add(n.pair)
      }
      yield* flush
      const changedIds = [...counts.keys()]
      // Each applied one's count: the final count less what the later ones of the group changed.
      const running = new Map(counts)
      const after = new Map<number, number>()
      for (const n of [...named].reverse()) {
        if (!applied.has(n.index)) continue
        const count = running.get(n.command.requestId)!
        after.set(n.index, count)
        running.set(n.command.requestId, count + (n.command.withdraw ? 1 : -1))
      }
      for (const n of named) {
        const { requestId, withdraw } = n.command
        const voter = n.voter
        const voteCount = after.get(n.index)
        if (voteCount === undefined) {
          outcomes[n.index] = Exit.fail(withdraw ? notVoted : alreadyVoted)
          continue
        }
        outcomes[n.index] = Exit.succeed({
          requestId,
          voteCount,
          voted: !withdraw,
          ...(voter.kind === "customer" ? { customerName: voter.name } : {})
        })
        events.push(
          withdraw
            ? { type: "request.unvoted", entityId: requestId, data: { voteCount }, by: n.command.by }
            : {
                type: "request.voted",
                entityId: requestId,
                data: { voteCount, onBehalf: voter.kind === "customer", anonymous: false },
                by: n.command.by
              }
        )
      }
      current = withRequests(
        current,
        changedIds.map((id) => ({ ...current.requests.find((r) => r.id === id)!, voteCount: counts.get(id)! }))
      )
    }
    return { result: outcomes, events, next: current }
  })

export const MergeOutcome = Schema.Struct({
  mergeId: Schema.String,
  source: Schema.String,
  target: Schema.String,
  movedVotes: Schema.Number,
  duplicateVotes: Schema.Number,
  movedSubscribers: Schema.Number
})
export type MergeOutcome = typeof MergeOutcome.Type

/**
 * Merges `sourceId` (on this board) into `targetId` (this board or another: the caller checked the
 * permission, and invalidates the other board's actor after the commit).
 */
export const merge = (state: BoardState, by: string, sourceId: string, targetId: string): WriteBody<MergeOutcome> =>
  Effect.gen(function* () {
    if (sourceId === targetId) return yield* new RequestMergeIntoItself()
    const source = yield* requestOf(state, sourceId)
    if (source.mergedInto !== null) return yield* new RequestAlreadyMerged()
    yield* lockRequests([sourceId, targetId])
    const targets = yield* query<{ merged_into: string | null; board_id: string }>(
      "SELECT merged_into, board_id FROM feedback_requests WHERE id = $1",
      [targetId]
    )
    const target = targets[0]
    if (target === undefined) return yield* new MergeTargetNotFound()
    if (target.merged_into !== null) {
      return yield* new MergeTargetMerged()
    }
    const duplicates = yield* query<Record<string, unknown>>(
      `DELETE FROM feedback_votes v WHERE v.request_id = $1
          AND EXISTS (SELECT 1 FROM feedback_votes t WHERE t.request_id = $2 AND t.voter_key = v.voter_key)
        RETURNING id, voter_key, user_id, customer_email, customer_name, cast_by, anonymous_fingerprint, ip_hash, merged_from, created_at`,
      [sourceId, targetId]
    )
    const moved = yield* query<{ id: string }>(
      "UPDATE feedback_votes SET request_id = $2, board_id = $3, merged_from = $1 WHERE request_id = $1 RETURNING id",
      [sourceId, targetId, target.board_id]
    )
    const subscribers = yield* query<{ user_id: string }>("DELETE FROM feedback_subscribers WHERE request_id = $1 RETURNING user_id", [
      sourceId
    ])
    const added = yield* query<{ user_id: string }>(
      `INSERT INTO feedback_subscribers (request_id, user_id, merged_from) SELECT $1, u, $2 FROM unnest($3::text[]) AS u
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [targetId, sourceId, subscribers.map((s) => s.user_id)]
    )
    const mergeId = randomUUID()
    yield* query(
      `INSERT INTO feedback_merges (id, board_id, source_id, target_id, previous_status_id, moved_votes, duplicate_votes, moved_subscribers, merged_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        mergeId,
        state.board.id,
        sourceId,
        targetId,
        source.statusId,
        moved.map((m) => m.id),
        duplicates,
        { all: subscribers.map((s) => s.user_id), added: added.map((a) => a.user_id) },
        by
      ]
    )
    yield* query("UPDATE feedback_requests SET merged_into = $2, merged_at = now(), updated_at = now() WHERE id = $1", [sourceId, targetId])
    yield* recount(sourceId)
    yield* recount(targetId)
    const records = [yield* reread(sourceId), ...(target.board_id === state.board.id ? [yield* reread(targetId)] : [])]
    return {
      result: {
        mergeId,
        source: sourceId,
        target: targetId,
        movedVotes: moved.length,
        duplicateVotes: duplicates.length,
        movedSubscribers: added.length
      },
      events: [{ type: "request.merged", entityId: sourceId, data: { intoId: targetId, mergeId, movedVotes: moved.length } }],
      notices: [
        {
          requestId: targetId,
          reason: "merged",
          title: `${shortIdOf(source.number)} ${source.title} was merged into another request you now follow`,
          userIds: subscribers.map((s) => s.user_id)
        }
      ],
      next: withRequests(state, records)
    }
  })

interface MergeRow {
  id: string
  target_id: string
  moved_votes: ReadonlyArray<string>
  duplicate_votes: ReadonlyArray<Record<string, unknown>>
  moved_subscribers: { all: ReadonlyArray<string>; added: ReadonlyArray<string> }
}

/** Undoes the latest merge of `sourceId`: its voters and subscribers come back (those who left since stay gone). */
export const unmerge = (state: BoardState, by: string, sourceId: string): WriteBody<MergeOutcome & { readonly targetBoardId: string }> =>
  Effect.gen(function* () {
    const source = yield* requestOf(state, sourceId)
    if (source.mergedInto === null) return yield* new RequestNotMerged()
    const merges = yield* query<MergeRow>(
      "SELECT id, target_id, moved_votes, duplicate_votes, moved_subscribers FROM feedback_merges WHERE source_id = $1 AND undone_at IS NULL ORDER BY merged_at DESC LIMIT 1",
      [sourceId]
    )
    const record = merges[0]
    if (record === undefined) return yield* new NoMergeToUndo()
    const targetId = record.target_id
    yield* lockRequests([sourceId, targetId])
    const back = yield* query(
      "UPDATE feedback_votes SET request_id = $1, board_id = $3, merged_from = NULL WHERE id = ANY($2::text[]) AND request_id = $4 RETURNING id",
      [sourceId, record.moved_votes, state.board.id, targetId]
    )
    for (const row of record.duplicate_votes) {
      yield* query(
        `INSERT INTO feedback_votes (id, request_id, board_id, voter_key, user_id, customer_email, customer_name, cast_by, anonymous_fingerprint, ip_hash, merged_from, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
        [
          row.id,
          sourceId,
          state.board.id,
          row.voter_key,
          row.user_id,
          row.customer_email,
          row.customer_name,
          row.cast_by,
          row.anonymous_fingerprint,
          row.ip_hash,
          row.merged_from,
          row.created_at
        ].map((v) => v ?? null)
      )
    }
    yield* query("DELETE FROM feedback_subscribers WHERE request_id = $1 AND merged_from = $2 AND user_id = ANY($3::text[])", [
      targetId,
      sourceId,
      record.moved_subscribers.added
    ])
    yield* query(
      "INSERT INTO feedback_subscribers (request_id, user_id) SELECT $1, u FROM unnest($2::text[]) AS u ON CONFLICT DO NOTHING",
      [sourceId, record.moved_subscribers.all]
    )
    yield* query("UPDATE feedback_requests SET merged_into = NULL, merged_at = NULL, updated_at = now() WHERE id = $1", [sourceId])
    yield* query("UPDATE feedback_merges SET undone_at = now(), undone_by = $2 WHERE id = $1", [record.id, by])
    yield* recount(sourceId)
    yield* recount(targetId)
    const targetBoard = yield* query<{ board_id: string }>("SELECT board_id FROM feedback_requests WHERE id = $1", [targetId])
    const targetBoardId = targetBoard[0]!.board_id
    const records = [yield* reread(sourceId), ...(targetBoardId === state.board.id ? [yield* reread(targetId)] : [])]
    return {
      result: {
        mergeId: record.id,
        source: sourceId,
        target: targetId,
        movedVotes: back.length,
        duplicateVotes: record.duplicate_votes.length,
        movedSubscribers: record.moved_subscribers.added.length,
        targetBoardId
      },
      events: [{ type: "request.unmerged", entityId: sourceId, data: { fromId: targetId, mergeId: record.id } }],
      next: withRequests(state, records)
    }
  })
