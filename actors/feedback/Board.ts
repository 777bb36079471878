/**
 * The Board actor: one per feedback board, the single writer of the board's
 * rows (its configuration, requests, votes, comments, subscriptions,
 * attachments). It holds the board, its members, its options and its
 * requests in memory (rebuilt from the rows on activation) and serves reads
 * from there; a write commits its rows and its change-log entries in one
 * transaction, then takes the new state (or rebuilds it before the next
 * message). Votes and merges of one board are serialised here; the row locks
 * in `Votes.ts` keep cross-board merges exact as well.
 * Who may ask is checked by the caller (`BoardAccess`); the actor keeps the
 * board's own rules (unique slugs and names, merges without cycles, one vote
 * per voter, anonymous rate limits).
 */
import { Effect, Schema } from "effect"
import { Actor, type ActorContext } from "../../runtime/Actor.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { ProseMirrorNode } from "../wiki/WikiViews.ts"
import * as Config from "./BoardConfig.ts"
import { commitBoardWrite, type WriteBody } from "./BoardLog.ts"
import { BoardStats, filterRequests, RequestFilter, roadmapOf, statsOf } from "./BoardReads.ts"
import { loadBoard } from "./BoardRows.ts"
import * as Discussion from "./Discussion.ts"
import { BoardArchived, BoardExists, BoardNotFound, BoardRefusal, StatusNotOnBoard, WorkItemNotFound } from "./FeedbackErrors.ts"
import * as Moderation from "./BoardModeration.ts"
import {
  Board as BoardSchema,
  BoardMember,
  BoardOption,
  BoardRole,
  BoardSettings,
  BoardState,
  BoardVisibility,
  ModerationState,
  OptionKind,
  RequestRecord,
  StatusType
} from "./FeedbackModel.ts"
import * as Requests from "./RequestWrites.ts"
import * as Votes from "./Votes.ts"
import * as Work from "./WorkLinks.ts"

const By = { by: Schema.String }
const NullableString = Schema.NullOr(Schema.String)
const opt = Schema.optionalKey
const Removed = Schema.Struct({ blobKeys: Schema.Array(Schema.String) })

/** Reads of the board fail only when there is none; the rest also on an archived board and with the rules' refusals. */
const Missing = BoardNotFound
const Refused = BoardRefusal
/** Links to work: the board, and the linked item or a status it names. */
const WorkRefused = Schema.Union([BoardNotFound, BoardArchived, WorkItemNotFound])
const ProgressRefused = Schema.Union([BoardNotFound, BoardArchived, StatusNotOnBoard])
const WorkItem = { itemKind: Work.WorkItemKind, itemId: Schema.String, taskId: Schema.String }

/** Board config as reads return it: everything but the requests. */
export const BoardView = Schema.Struct({ board: BoardSchema, members: Schema.Array(BoardMember), options: Schema.Array(BoardOption) })
export type BoardView = typeof BoardView.Type

const OptionInput = {
  name: opt(Schema.String),
  description: opt(Schema.String),
  color: opt(Schema.String),
  type: opt(StatusType),
  isDefault: opt(Schema.Boolean),
  position: opt(Schema.Number)
}

const RoadmapColumn = Schema.Struct({ type: StatusType, statuses: Schema.Array(BoardOption), requests: Schema.Array(RequestRecord) })

type State = BoardState | null

const existing = (ctx: ActorContext<State>) => (ctx.state === null ? Effect.fail(new BoardNotFound()) : Effect.succeed(ctx.state))

const writable = (ctx: ActorContext<State>) =>
  Effect.flatMap(existing(ctx), (state) => (state.board.archived ? Effect.fail(new BoardArchived()) : Effect.succeed(state)))

/** Commits `body` for the board and takes the state it leaves (or rebuilds it). */
const write = <A>(ctx: ActorContext<State>, state: BoardState, by: string, body: WriteBody<A>) =>
  Effect.map(commitBoardWrite(state.board.id, state.board.workspaceId, by, body), (written) => {
    if (written.next === undefined) ctx.reload()
    else ctx.setState(written.next)
    return written.result
  })

/**
 * A write of work links and progress (declared errors only): its statements
 * cannot break a unique key or a reference, so such a conflict from the commit is a defect.
 */
const writeWork = <A, E>(ctx: ActorContext<State>, by: string, body: (state: BoardState) => WriteBody<A, E>) =>
  Effect.flatMap(writable(ctx), (state) =>
    Effect.map(
      commitBoardWrite(state.board.id, state.board.workspaceId, by, body(state)).pipe(
        Effect.catchTag(["BoardNameTaken", "ReferenceGone"], (error) => Effect.die(error))
      ),
      (written) => {
        if (written.next === undefined) ctx.reload()
        else ctx.setState(written.next)
        return written.result
      }
    )
  )

/** A write on an active (not archived) board. */
const onActive =
  <P extends { readonly by: string }, A>(body: (state: BoardState, payload: P) => WriteBody<A>) =>
  (payload: P, ctx: ActorContext<State>) =>
    Effect.flatMap(writable(ctx), (state) => write(ctx, state, payload.by, body(state, payload)))

const VotePayload = Schema.Struct({ ...By, requestId: Schema.String, voter: Votes.Voter })
type VoteMessage = { readonly tag: "vote" | "unvote"; readonly payload: typeof VotePayload.Type }

/** Votes and withdrawals queued together, committed in one transaction (group commit), each answered on its own. */
const castVotes = (messages: ReadonlyArray<VoteMessage>, ctx: ActorContext<State>) =>
  Effect.flatMap(writable(ctx), (state) =>
    write(
      ctx,
      state,
      messages[0]!.payload.by,
      Votes.castVotes(
        state,
        messages.map(({ tag, payload }) => ({
          withdraw: tag === "unvote",
          by: payload.by,
          requestId: payload.requestId,
          voter: payload.voter
        }))
      )
    )
  )

const castOne = (tag: VoteMessage["tag"]) => (payload: VoteMessage["payload"], ctx: ActorContext<State>) =>
  Effect.flatMap(castVotes([{ tag, payload }], ctx), (outcomes) => outcomes[0]!)

/** Another board's actor whose rows a cross-board merge changed rebuilds before its next message. */
const invalidateBoard = (boardId: string, self: string): Effect.Effect<void, never, ActorSystem> =>
  boardId === self ? Effect.void : ActorSystem.use((system) => system.invalidate({ kind: "feedbackBoard" }, boardId))

export const Board = Actor<State>()({
  kind: "feedbackBoard",
  state: Schema.NullOr(BoardState),
  initial: () => null,
  rebuild: loadBoard,
  // Reads are answered from memory at once, never behind a commit; votes queued together commit together.
  readOnly: ["view", "request", "requests", "roadmap", "stats"],
  group: { tags: ["vote", "unvote"], handle: (messages, ctx) => castVotes(messages as ReadonlyArray<VoteMessage>, ctx) },
  messages: {
    view: { payload: Schema.Struct({}), success: BoardView, error: Missing },
    request: { payload: Schema.Struct({ requestId: Schema.String }), success: RequestRecord, error: Refused },
    requests: {
      payload: RequestFilter,
      success: Schema.Struct({ items: Schema.Array(RequestRecord), total: Schema.Number }),
      error: Missing
    },
    roadmap: {
      payload: Schema.Struct({ viewerId: NullableString, team: Schema.Boolean }),
      success: Schema.Array(RoadmapColumn),
      error: Missing
    },
    stats: { payload: Schema.Struct({}), success: BoardStats, error: Missing },
    create: {
      payload: Schema.Struct({
        ...By,
        workspaceId: Schema.String,
        name: Schema.String,
        slug: Schema.String,
        key: opt(Schema.String),
        description: Schema.String,
        visibility: BoardVisibility,
        settings: opt(BoardSettings),
        copyOptionsOf: opt(Schema.Array(BoardOption))
      }),
      success: BoardSchema,
      error: Refused
    },
    update: {
      payload: Schema.Struct({
        ...By,
        name: opt(Schema.String),
        slug: opt(Schema.String),
        key: opt(Schema.String),
        description: opt(Schema.String),
        visibility: opt(BoardVisibility),
        settings: Schema.Struct({
          whoMayPost: opt(BoardSettings.fields.whoMayPost),
          whoMayVote: opt(BoardSettings.fields.whoMayVote),
          anonymousVoting: opt(Schema.Boolean),
          anonymousVotesPerHour: opt(Schema.Number),
          moderation: opt(Schema.Boolean),
          allowComments: opt(Schema.Boolean)
        })
      }),
      success: BoardSchema,
      error: Refused
    },
    archive: { payload: Schema.Struct(By), success: BoardSchema, error: Refused },
    restore: { payload: Schema.Struct(By), success: BoardSchema, error: Refused },
    remove: { payload: Schema.Struct(By), success: Removed, error: Refused },
    setMember: { payload: Schema.Struct({ ...By, userId: Schema.String, role: BoardRole }), success: BoardMember, error: Refused },
    removeMember: { payload: Schema.Struct({ ...By, userId: Schema.String }), success: Schema.Void, error: Refused },
    createOption: {
      payload: Schema.Struct({ ...By, kind: OptionKind, ...OptionInput, name: Schema.String }),
      success: BoardOption,
      error: Refused
    },
    updateOption: {
      payload: Schema.Struct({ ...By, kind: OptionKind, optionId: Schema.String, ...OptionInput }),
      success: BoardOption,
      error: Refused
    },
    deleteOption: {
      payload: Schema.Struct({ ...By, kind: OptionKind, optionId: Schema.String, replacementId: opt(Schema.String) }),
      success: Schema.Void,
      error: Refused
    },
    reorderOptions: {
      payload: Schema.Struct({ ...By, kind: OptionKind, ids: Schema.Array(Schema.String) }),
      success: Schema.Array(BoardOption),
      error: Refused
    },
    createRequest: {
      payload: Schema.Struct({
        ...By,
        requestId: Schema.String,
        title: Schema.String,
        content: ProseMirrorNode,
        markdown: Schema.String,
        text: Schema.String,
        categoryId: opt(NullableString),
        productAreaId: opt(NullableString),
        statusId: opt(Schema.String),
        authorId: NullableString,
        authorName: NullableString,
        moderationState: ModerationState
      }),
      success: RequestRecord,
      error: Refused
    },
    updateRequest: {
      payload: Schema.Struct({
        ...By,
        requestId: Schema.String,
        title: opt(Schema.String),
        content: opt(ProseMirrorNode),
        markdown: opt(Schema.String),
        text: opt(Schema.String),
        categoryId: opt(NullableString),
        productAreaId: opt(NullableString)
      }),
      success: RequestRecord,
      error: Refused
    },
    deleteRequest: { payload: Schema.Struct({ ...By, requestId: Schema.String }), success: Removed, error: Refused },
    changeStatus: {
      payload: Schema.Struct({ ...By, requestId: Schema.String, statusId: Schema.String, note: Schema.String }),
      success: RequestRecord,
      error: Refused
    },
    setFlags: {
      payload: Schema.Struct({
        ...By,
        requestId: Schema.String,
        pinned: opt(Schema.Boolean),
        locked: opt(Schema.Boolean),
        ownerId: opt(NullableString)
      }),
      success: RequestRecord,
      error: Refused
    },
    bulkUpdate: {
      payload: Schema.Struct({
        ...By,
        ids: Schema.Array(Schema.String),
        statusId: opt(Schema.String),
        categoryId: opt(NullableString),
        productAreaId: opt(NullableString)
      }),
      success: Schema.Array(RequestRecord),
      error: Refused
    },
    vote: { payload: VotePayload, success: Votes.VoteOutcome, error: Refused },
    unvote: { payload: VotePayload, success: Votes.VoteOutcome, error: Refused },
    merge: {
      payload: Schema.Struct({ ...By, requestId: Schema.String, intoId: Schema.String, targetBoardId: Schema.String }),
      success: Votes.MergeOutcome,
      error: Refused
    },
    /** Undoes the latest merge of the request (the moderation log offers it). */
    unmerge: { payload: Schema.Struct({ ...By, requestId: Schema.String }), success: Votes.MergeOutcome, error: Refused },
    addComment: {
      payload: Schema.Struct({
        ...By,
        commentId: Schema.String,
        requestId: Schema.String,
        parentId: NullableString,
        authorName: NullableString,
        body: Schema.String,
        internal: Schema.Boolean,
        mentions: Schema.Array(Schema.String),
        moderationState: ModerationState
      }),
      success: Discussion.CommentRecord,
      error: Refused
    },
    /** A comment from a visitor of the public portal (`by`: anonymous). */
    addVisitorComment: {
      payload: Schema.Struct({
        ...By,
        commentId: Schema.String,
        requestId: Schema.String,
        parentId: NullableString,
        body: Schema.String,
        moderationState: ModerationState,
        visitor: Discussion.VisitorInput
      }),
      success: Discussion.CommentRecord,
      error: Refused
    },
    editComment: {
      payload: Schema.Struct({ ...By, commentId: Schema.String, body: Schema.String, mentions: Schema.Array(Schema.String) }),
      success: Discussion.CommentRecord,
      error: Refused
    },
    deleteComment: { payload: Schema.Struct({ ...By, commentId: Schema.String }), success: Schema.Void, error: Refused },
    subscribe: {
      payload: Schema.Struct({ ...By, requestId: Schema.String, subscribed: Schema.Boolean }),
      success: Schema.Boolean,
      error: Refused
    },
    subscribeBoard: { payload: Schema.Struct({ ...By, subscribed: Schema.Boolean }), success: Schema.Boolean, error: Refused },
    setNotificationMode: {
      payload: Schema.Struct({ ...By, mode: Discussion.NotificationMode }),
      success: Schema.Struct({ mode: Discussion.NotificationMode, updatedAt: Schema.String }),
      error: Refused
    },
    addAttachment: {
      payload: Schema.Struct({
        ...By,
        id: Schema.String,
        requestId: Schema.String,
        filename: Schema.String,
        contentType: Schema.String,
        size: Schema.Number,
        blobKey: Schema.String
      }),
      success: Discussion.AttachmentRecord,
      error: Refused
    },
    removeAttachment: {
      payload: Schema.Struct({ ...By, attachmentId: Schema.String }),
      success: Discussion.AttachmentRecord,
      error: Refused
    },
    moderate: { payload: Moderation.ModerationDecision, success: Schema.Void, error: Refused },
    /** Links a pm task (checked by the caller) to a request or bug report; `field` names the item's input for a refusal. */
    linkWork: {
      payload: Schema.Struct({ ...By, ...WorkItem, field: Schema.String }),
      success: Schema.Struct({ linked: Schema.Boolean }),
      error: WorkRefused
    },
    unlinkWork: { payload: Schema.Struct({ ...By, ...WorkItem }), success: Schema.Void, error: WorkRefused },
    setWorkProgress: { payload: Schema.Struct({ ...By, ...Work.WorkProgress.fields }), success: Work.WorkProgress, error: ProgressRefused },
    /** Moves a request as its linked tasks' statuses (read by the caller from pm) say, as the work automation. */
    applyWork: {
      payload: Schema.Struct({ requestId: Schema.String, tasks: Schema.Array(Work.TaskProgress), gone: Schema.Array(Schema.String) }),
      success: Work.Moved,
      error: WorkRefused
    }
  },
  handlers: {
    view: (_, ctx) => Effect.map(existing(ctx), ({ board, members, options }) => ({ board, members, options })),
    request: ({ requestId }, ctx) => Effect.flatMap(existing(ctx), (state) => Requests.requestOf(state, requestId)),
    requests: (filter, ctx) => Effect.map(existing(ctx), (state) => filterRequests(state, filter)),
    roadmap: ({ viewerId, team }, ctx) => Effect.map(existing(ctx), (state) => roadmapOf(state, viewerId, team)),
    stats: (_, ctx) => Effect.map(existing(ctx), statsOf),
    create: ({ by, ...input }, ctx) =>
      ctx.state !== null
        ? Effect.fail(new BoardExists())
        : Effect.map(commitBoardWrite(ctx.address.id, input.workspaceId, by, Config.createBoard(ctx.address.id, by, input)), (written) => {
            ctx.reload()
            return written.result
          }),
    update: onActive((state, { by: _, settings, ...fields }) => Config.updateBoard(state, fields, settings)),
    archive: (payload, ctx) => Effect.flatMap(existing(ctx), (state) => write(ctx, state, payload.by, Config.setArchived(state, true))),
    restore: (payload, ctx) => Effect.flatMap(existing(ctx), (state) => write(ctx, state, payload.by, Config.setArchived(state, false))),
    remove: (payload, ctx) => Effect.flatMap(existing(ctx), (state) => write(ctx, state, payload.by, Config.removeBoard(state))),
    setMember: onActive((state, { by, userId, role }) => Config.setMember(state, by, userId, role)),
    removeMember: onActive((state, { userId }) => Config.removeMember(state, userId)),
    createOption: onActive((state, { by: _, kind, ...fields }) => Config.createOption(state, kind, fields)),
    updateOption: onActive((state, { by: _, kind, optionId, ...fields }) => Config.updateOption(state, kind, optionId, fields)),
    deleteOption: onActive((state, { kind, optionId, replacementId }) => Config.deleteOption(state, kind, optionId, replacementId)),
    reorderOptions: onActive((state, { kind, ids }) => Config.reorderOptions(state, kind, ids)),
    createRequest: onActive((state, { by, ...input }) => Requests.createRequest(state, by, input)),
    updateRequest: onActive((state, { by: _, requestId, ...fields }) => Requests.updateRequest(state, requestId, fields)),
    deleteRequest: onActive((state, { requestId }) => Requests.deleteRequest(state, requestId)),
    changeStatus: onActive((state, { by, requestId, statusId, note }) => Requests.changeStatus(state, by, requestId, statusId, note)),
    setFlags: onActive((state, { by: _, requestId, ...flags }) => Requests.setFlags(state, requestId, flags)),
    bulkUpdate: onActive((state, { by, ids, ...change }) => Requests.bulkUpdate(state, by, ids, change)),
    vote: castOne("vote"),
    unvote: castOne("unvote"),
    merge: (payload, ctx) =>
      Effect.tap(
        onActive<typeof payload, Votes.MergeOutcome>((state, { by, requestId, intoId }) => Votes.merge(state, by, requestId, intoId))(
          payload,
          ctx
        ),
        () => invalidateBoard(payload.targetBoardId, ctx.address.id)
      ),
    unmerge: (payload, ctx) =>
      Effect.flatMap(
        onActive<typeof payload, Votes.MergeOutcome & { readonly targetBoardId: string }>((state, { by, requestId }) =>
          Votes.unmerge(state, by, requestId)
        )(payload, ctx),
        ({ targetBoardId, ...outcome }) => Effect.as(invalidateBoard(targetBoardId, ctx.address.id), outcome)
      ),
    addComment: onActive((state, { by, ...input }) => Discussion.addComment(state, by, input)),
    addVisitorComment: onActive((state, { by, visitor, ...input }) => Discussion.addVisitorComment(state, by, input, visitor)),
    editComment: onActive((state, { commentId, body, mentions }) => Discussion.editComment(state, commentId, body, mentions)),
    deleteComment: onActive((state, { commentId }) => Discussion.deleteComment(state, commentId)),
    subscribe: (payload, ctx) =>
      Effect.flatMap(existing(ctx), (state) =>
        write(ctx, state, payload.by, Discussion.setSubscribed(state, payload.requestId, payload.by, payload.subscribed))
      ),
    subscribeBoard: (payload, ctx) =>
      Effect.flatMap(existing(ctx), (state) =>
        write(ctx, state, payload.by, Discussion.setBoardSubscribed(state, payload.by, payload.subscribed))
      ),
    setNotificationMode: (payload, ctx) =>
      Effect.flatMap(existing(ctx), (state) =>
        write(ctx, state, payload.by, Discussion.setNotificationMode(state, payload.by, payload.mode))
      ),
    addAttachment: onActive((state, { by, ...input }) => Discussion.addAttachment(state, by, input)),
    removeAttachment: onActive((state, { attachmentId }) => Discussion.removeAttachment(state, attachmentId)),
    moderate: (payload, ctx) =>
      Effect.flatMap(existing(ctx), (state) => write(ctx, state, payload.by, Moderation.setModeration(state, payload))),
    linkWork: ({ by, ...input }, ctx) => writeWork(ctx, by, (state) => Work.linkWork(state, by, input)),
    unlinkWork: ({ by, ...input }, ctx) => writeWork(ctx, by, (state) => Work.unlinkWork(state, input)),
    setWorkProgress: ({ by, ...progress }, ctx) => writeWork(ctx, by, (state) => Work.setWorkProgress(state, by, progress)),
    applyWork: ({ requestId, tasks, gone }, ctx) =>
      writeWork(ctx, Work.WORK_AUTOMATION, (state) => Work.applyWork(state, requestId, tasks, gone))
  }
})
