/**
 * A processed call's customer asks, offered as proposals. An ask (found in
 * the summarizer's analysis by rules, `summarizer/CustomerAsks.ts`, or by the
 * language model when one is configured, `summarizer/ModelAsks.ts`) is a customer's
 * when its speaker is an attendee outside the workspace's team (no member
 * role: a viewer is how a customer is invited). Each becomes one proposal on the workspace's
 * board — the first public one, else the first one, oldest first (no
 * workspace setting names a board for this): a vote on behalf of the
 * attendee's e-mail for the request the board's own similar-request match
 * ranks first (when it matches well), else a new request. Nothing reaches
 * the board until a member confirms (`facade/lens/Proposals.ts` applies it
 * with their credentials); rejecting writes nothing.
 *
 * These rows belong to the call, not to a Lens thread: Lens proposals are
 * one user's, stored with the answer that proposed them, while a call's asks
 * are the whole team's to decide. This module is their single writer; a
 * decision is a compare-and-set on the row's status, so two members
 * confirming at once apply it once.
 */
import { createHash, randomUUID } from "node:crypto"
import { Effect, Option } from "effect"
import { isoTimestampSql, query } from "../../persistence/Sql.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { Board } from "../feedback/Board.ts"
import { boardIdsOfWorkspace } from "../feedback/BoardRows.ts"
import { relevance } from "../feedback/BoardReads.ts"
import { requestReference } from "../feedback/BoardKeys.ts"
import { atLeast, Workspace } from "../identity/Workspace.ts"
import type { CallMoment, Proposal, ProposedWrite } from "../lens/Proposals.ts"
import { HubCall } from "./CallActor.ts"
import { type Attendee, recordingRows } from "./CallRecords.ts"
import { customerAsksOf } from "./summarizer/ModelAsks.ts"

/** The board's best match counts as the same request from this relevance on (most of the ask's content words in its title). */
const SIMILAR = 2
/** A claim ("applying") older than this was left by a node that died mid-apply: it may be decided again. */
const CLAIM_SECONDS = 120

/** `m:ss` (or `h:mm:ss`) of a transcript moment. */
export const clockOf = (ms: number) => {
  const seconds = Math.floor(ms / 1000)
  const mm = String(Math.floor((seconds % 3600) / 60))
  const ss = String(seconds % 60).padStart(2, "0")
  return seconds >= 3600 ? `${Math.floor(seconds / 3600)}:${mm.padStart(2, "0")}:${ss}` : `${mm}:${ss}`
}

/** The web app's link to a moment of a call's transcript. */
export const momentHref = (workspaceId: string, callId: number, startMs: number) => `/w/${workspaceId}/meetings/${callId}?t=${startMs}`

const normalized = (text: string) => text.trim().toLowerCase()

/** Whether `speaker` (a transcript's label) names `attendee`: their name, their e-mail, or its local part ("carol.diaz" → "Carol Diaz"). */
const names = (speaker: string, attendee: Attendee) => {
  const said = normalized(speaker)
  const email = normalized(attendee.email)
  const local = email.split("@")[0]!
  const spoken = local.split(/[._+-]+/).filter((part) => part !== "")
  return (
    said === email ||
    (attendee.name !== null && said === normalized(attendee.name)) ||
    said === local ||
    said === spoken.join(" ") ||
    said === spoken[0]
  )
}

/**
 * The attendees outside the team: no account, an account that is not a member, or a viewer (how customers are
 * invited to a workspace; the feedback board's team likewise starts at the member role).
 */
const outsiders = (workspaceId: string, attendees: ReadonlyArray<Attendee>) =>
  Effect.gen(function* () {
    const workspace = Workspace.client(yield* ActorSystem)(workspaceId)
    const outside: Array<Attendee> = []
    const inside: Array<Attendee> = []
    for (const attendee of attendees) {
      const role = attendee.userId === null ? Option.none() : yield* Effect.option(workspace.roleOf({ userId: attendee.userId }))
      if (Option.isSome(role) && atLeast(role.value, "member")) inside.push(attendee)
      else outside.push(attendee)
    }
    return { outside, inside }
  })

/** The board asks go to: the workspace's first public board, else its first one (oldest first; archived ones never). */
const boardFor = (workspaceId: string) =>
  Effect.gen(function* () {
    const boards = Board.client(yield* ActorSystem)
    const views = yield* Effect.forEach(yield* Effect.orDie(boardIdsOfWorkspace(workspaceId)), (id) => Effect.option(boards(id).view({})))
    const open = views.flatMap((view) => (Option.isSome(view) && !view.value.board.archived ? [view.value.board] : []))
    return open.find((board) => board.visibility === "public") ?? open[0]
  })

/** The request the board's own similar-request match ranks first for these words, when it matches well enough. */
const similarRequest = (boardId: string, terms: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const words = terms.filter((term) => term.length > 1)
    if (words.length === 0) return undefined
    const found = yield* Board.client(yield* ActorSystem)(boardId)
      .requests({ viewerId: null, team: true, q: words.join(" "), includeMerged: false, sort: "top", offset: 0, limit: 1 })
      .pipe(Effect.orElseSucceed(() => ({ items: [], total: 0 })))
    const best = found.items[0]
    return best !== undefined && relevance(best, words) >= SIMILAR ? best : undefined
  })

/**
 * Finds the customer asks of processed recording `recordingId` and stores each as a proposal (once per ask:
 * reprocessing leaves earlier ones and their decisions alone). Answers how many it stored.
 */
export const proposeCustomerAsks = (recordingId: number) =>
  Effect.gen(function* () {
    const [recording] = yield* recordingRows("r.id = $1", [recordingId])
    if (recording === undefined || recording.status !== "ready") return 0
    const segments = yield* (yield* ActorSystem).ask(HubCall, String(recordingId), "transcript", {})
    const { outside, inside } = yield* outsiders(recording.workspaceId, recording.attendees)
    if (outside.length === 0) return 0
    // A speaker who could be a member is not taken for a customer.
    const customerOf = (speaker: string) =>
      inside.some((attendee) => names(speaker, attendee)) ? undefined : outside.find((attendee) => names(speaker, attendee))
    const asks = (yield* customerAsksOf(segments)).flatMap((ask) => {
      const customer = customerOf(ask.speaker)
      return customer === undefined ? [] : [{ ...ask, customer }]
    })
    if (asks.length === 0) return 0
    const board = yield* boardFor(recording.workspaceId)
    if (board === undefined) return 0
    let stored = 0
    for (const ask of asks) {
      const segment = segments[ask.segment]!
      const email = normalized(ask.customer.email)
      const link = `[${recording.name} at ${clockOf(segment.startMs)}](${momentHref(recording.workspaceId, recording.callId, segment.startMs)})`
      const similar = yield* similarRequest(board.id, ask.terms)
      const write: ProposedWrite =
        similar !== undefined
          ? {
              operationId: "voteFeatureRequestLite",
              title: `Add a vote from ${email} to request ${requestReference(board.key, similar.number)} "${similar.title}" (similar)`,
              input: {
                workspaceId: recording.workspaceId,
                requestRef: similar.id,
                onBehalfOfEmail: email,
                note: `${email} asked for this in the call ${link}: "${ask.text}"`
              }
            }
          : {
              operationId: "createFeatureRequestLite",
              title: `Create request "${ask.text.slice(0, 120)}" on board ${board.name}`,
              input: {
                workspaceId: recording.workspaceId,
                board: board.slug,
                title: ask.text.slice(0, 200),
                description: `${email} asked for this in the call ${link}:\n\n> ${ask.text}`,
                onBehalfOfEmail: email
              }
            }
      const inserted = yield* query(
        `INSERT INTO hub_call_proposals (id, workspace_id, recording_id, call_id, ask_key, speaker_email, said, start_ms, end_ms,
                                         board_id, request_id, operation_id, title, input)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
         ON CONFLICT (recording_id, ask_key) DO NOTHING RETURNING id`,
        [
          randomUUID(),
          recording.workspaceId,
          recordingId,
          recording.callId,
          createHash("sha256").update(`${segment.startMs}\n${ask.text}`).digest("hex"),
          email,
          ask.text,
          segment.startMs,
          segment.endMs,
          board.id,
          similar?.id ?? null,
          write.operationId,
          write.title,
          write.input
        ]
      )
      stored += inserted.length
    }
    return stored
  })

interface Row {
  readonly id: string
  readonly workspaceId: string
  readonly operationId: string
  readonly title: string
  readonly input: Record<string, unknown>
  readonly status: Proposal["status"]
  readonly result: unknown
  readonly createdAt: string
  readonly decidedAt: string | null
  readonly callId: number
  readonly recordingId: number
  readonly callName: string
  readonly callAt: string
  readonly startMs: number
  readonly endMs: number
  readonly speakerEmail: string
  readonly said: string
  readonly boardId: string
  readonly requestId: string | null
}

/** A call proposal as Lens lists it, and when its call took place. */
export interface CallProposal extends Proposal {
  readonly call: CallMoment
  readonly callAt: string
}

const toProposal = (row: Row): CallProposal => ({
  id: row.id,
  workspaceId: row.workspaceId,
  answerId: null,
  operationId: row.operationId,
  title: row.title,
  input: row.input,
  status: row.status,
  result: row.result ?? null,
  createdAt: row.createdAt,
  decidedAt: row.decidedAt,
  call: {
    callId: Number(row.callId),
    recordingId: Number(row.recordingId),
    callName: row.callName,
    startMs: row.startMs,
    endMs: row.endMs,
    speakerEmail: row.speakerEmail,
    said: row.said,
    boardId: row.boardId,
    requestId: row.requestId
  },
  callAt: row.callAt
})

// A claim in progress reads as still proposed: it is, until the apply answers.
const rows = (where: string, params: ReadonlyArray<unknown>, limit = 200) =>
  Effect.map(
    query<Row>(
      `SELECT p.id, p.workspace_id AS "workspaceId", p.operation_id AS "operationId", p.title, p.input,
              CASE WHEN p.status = 'applying' THEN 'proposed' ELSE p.status END AS status, p.result,
              ${isoTimestampSql("p.created_at")} AS "createdAt",
              CASE WHEN p.status IN ('applied', 'rejected') THEN ${isoTimestampSql("p.decided_at")} ELSE NULL END AS "decidedAt",
              p.call_id AS "callId", p.recording_id AS "recordingId", r.name AS "callName", ${isoTimestampSql("r.created_at")} AS "callAt",
              p.start_ms AS "startMs", p.end_ms AS "endMs", p.speaker_email AS "speakerEmail", p.said,
              p.board_id AS "boardId", p.request_id AS "requestId"
         FROM hub_call_proposals p JOIN hub_recordings r ON r.id = p.recording_id
        WHERE ${where} ORDER BY r.created_at DESC, p.start_ms, p.id LIMIT ${limit}`,
      params
    ),
    (found) => found.map(toProposal)
  )

/** The workspace's call proposals (of one status), newest call first. */
export const callProposalsOf = (workspaceId: string, status: Proposal["status"] | undefined) =>
  status === undefined
    ? rows("p.workspace_id = $1", [workspaceId])
    : rows(`p.workspace_id = $1 AND (p.status = $2 OR ($2 = 'proposed' AND p.status = 'applying'))`, [workspaceId, status])

/** The workspace's customer asks from calls held since `since` (ISO), at most `limit`. */
export const customerAsksSince = (workspaceId: string, since: string, limit: number) =>
  rows("p.workspace_id = $1 AND r.created_at >= $2::timestamptz", [workspaceId, since], limit)

/** One call proposal, if it exists. */
export const callProposal = (proposalId: string) => Effect.map(rows("p.id = $1", [proposalId], 1), (found) => found[0])

/** Claims an undecided proposal for applying by `by`; false when it was decided (or is being applied) already. */
export const claimCallProposal = (proposalId: string, by: string) =>
  Effect.map(
    query(
      `UPDATE hub_call_proposals SET status = 'applying', decided_by = $2, decided_at = now()
        WHERE id = $1 AND (status = 'proposed' OR (status = 'applying' AND decided_at < now() - make_interval(secs => $3)))
        RETURNING id`,
      [proposalId, by, CLAIM_SECONDS]
    ),
    (claimed) => claimed.length === 1
  )

/** What the proposal's confirmation applied so far, by step (kept across a failed attempt). */
export const callProposalSteps = (proposalId: string) =>
  Effect.map(
    query<{ steps: Record<string, unknown> }>("SELECT steps FROM hub_call_proposals WHERE id = $1", [proposalId]),
    (found): Readonly<Record<string, unknown>> => found[0]?.steps ?? {}
  )

/** One step of the claimed proposal's confirmation is applied: a retry after a later step failed skips it. */
export const recordCallProposalStep = (proposalId: string, by: string, step: string, result: unknown) =>
  query(
    `UPDATE hub_call_proposals SET steps = steps || jsonb_build_object($3::text, $4::jsonb)
      WHERE id = $1 AND status = 'applying' AND decided_by = $2`,
    [proposalId, by, step, result ?? null]
  )

/** The claimed proposal was applied: keep what the operations answered. */
export const appliedCallProposal = (proposalId: string, by: string, result: unknown) =>
  query(
    `UPDATE hub_call_proposals SET status = 'applied', result = $3, decided_at = now() WHERE id = $1 AND status = 'applying' AND decided_by = $2`,
    [proposalId, by, result ?? null]
  )

/** Applying the claimed proposal failed: it is undecided again (the steps it finished stay recorded). */
export const releaseCallProposal = (proposalId: string, by: string) =>
  query(
    `UPDATE hub_call_proposals SET status = 'proposed', decided_by = NULL, decided_at = NULL WHERE id = $1 AND status = 'applying' AND decided_by = $2`,
    [proposalId, by]
  )

/** Rejects an undecided proposal (nothing is written anywhere else); false when it was decided already. */
export const rejectCallProposal = (proposalId: string, by: string) =>
  Effect.map(
    query(
      `UPDATE hub_call_proposals SET status = 'rejected', decided_by = $2, decided_at = now() WHERE id = $1 AND status = 'proposed' RETURNING id`,
      [proposalId, by]
    ),
    (rejected) => rejected.length === 1
  )
