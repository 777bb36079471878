/**
 * The feedback service's DTOs as operations answer them, their mapping from
 * the Board actor's records, and the examples' shared made-up ids (the fuzz
 * seed replaces them with real ones).
 */
import { requestReference } from "../../actors/feedback/BoardKeys.ts"
import { Effect, Schema } from "effect"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import type { BoardView } from "../../actors/feedback/Board.ts"
import {
  Board,
  type BoardOption,
  ModerationState,
  type OptionKind,
  type RequestRecord,
  StatusType,
  shortIdOf
} from "../../actors/feedback/FeedbackModel.ts"
import { ProseMirrorNode } from "../../actors/wiki/WikiViews.ts"

export const service = "feedback"

export const examples = {
  workspaceId: "0b9e4c1a-6f0e-4d5f-9a77-3f7c2f1e8a10",
  userId: "6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f",
  memberId: "7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d",
  boardId: "f1b2c3d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d",
  featureRequestId: "f2c3d4e5-6f7a-4b8c-9d0e-1f2a3b4c5d6e",
  duplicateId: "f3d4e5f6-7a8b-4c9d-8e1f-2a3b4c5d6e7f",
  categoryId: "f4e5f6a7-8b9c-4d0e-9f2a-3b4c5d6e7f80",
  productAreaId: "f5f6a7b8-9c0d-4e1f-8a3b-4c5d6e7f8091",
  statusId: "f6a7b8c9-0d1e-4f2a-9b4c-5d6e7f8091a2",
  bugStatusLevelId: "f7b8c9d0-1e2f-4a3b-8c5d-6e7f8091a2b3",
  severityLevelId: "f8c9d0e1-2f3a-4b4c-9d6e-7f8091a2b3c4",
  commentId: "f9d0e1f2-3a4b-4c5d-8e7f-8091a2b3c4d5",
  attachmentId: "fae1f2a3-4b5c-4d6e-9f80-91a2b3c4d5e6",
  at: "2026-11-21T12:00:00.000Z"
} as const

export const Person = Schema.Struct({ userId: Id, name: Schema.String }).annotate({ identifier: "FeedbackPerson" })
export type Person = typeof Person.Type

export const StatusRef = Schema.Struct({ id: Id, name: Schema.String, type: StatusType, color: Schema.String }).annotate({
  identifier: "FeedbackStatusRef"
})
export const OptionRef = Schema.Struct({ id: Id, name: Schema.String }).annotate({ identifier: "FeedbackOptionRef" })

export const FeatureRequest = Schema.Struct({
  id: Id,
  shortId: Schema.String.annotate({ description: "FR-<n>, numbered per board" }),
  reference: Schema.String.annotate({ description: "<board key>-<n> (e.g. MOBILE-12): names this request in the whole workspace" }),
  boardId: Id,
  title: Schema.String,
  description: Schema.String.annotate({ description: "Markdown" }),
  content: ProseMirrorNode,
  status: Schema.NullOr(StatusRef),
  category: Schema.NullOr(OptionRef),
  productArea: Schema.NullOr(OptionRef),
  owner: Schema.NullOr(Person),
  author: Schema.NullOr(Person),
  voteCount: Schema.Number,
  commentCount: Schema.Number,
  mergedInto: Schema.NullOr(Id).annotate({ description: "The original this duplicate was merged into" }),
  mergedAt: Schema.NullOr(Timestamp),
  moderationState: ModerationState,
  pinned: Schema.Boolean,
  locked: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "FeatureRequest" })
export type FeatureRequest = typeof FeatureRequest.Type

export const FeatureRequestPage = Schema.Struct({
  items: Schema.Array(FeatureRequest),
  total: Schema.Number,
  nextOffset: Schema.NullOr(Schema.Number)
}).annotate({ identifier: "FeatureRequestPage" })

export const FeatureRequestList = Schema.Struct({ items: Schema.Array(FeatureRequest) }).annotate({ identifier: "FeatureRequestList" })

export const names = (userIds: ReadonlyArray<string | null>) =>
  Effect.map(
    Effect.orDie(usersByIds(userIds.filter((id): id is string => id !== null))),
    (users) => (id: string | null, fallback?: string | null) =>
      id === null ? null : { userId: id, name: users.get(id)?.name ?? fallback ?? "" }
  )

/** The requests as DTOs, with their status, category, product area and people resolved. */
export const featureRequestsOf = (view: Pick<BoardView, "options" | "board">, records: ReadonlyArray<RequestRecord>) =>
  Effect.map(names(records.flatMap((r) => [r.authorId, r.ownerId])), (person) => {
    const options = new Map(view.options.map((o) => [o.id, o]))
    const ref = (id: string | null) => {
      const option = id === null ? undefined : options.get(id)
      return option === undefined ? null : { id: option.id, name: option.name }
    }
    return records.map((r): FeatureRequest => {
      const status = r.statusId === null ? undefined : options.get(r.statusId)
      return {
        id: r.id,
        shortId: shortIdOf(r.number),
        reference: requestReference(view.board.key, r.number),
        boardId: r.boardId,
        title: r.title,
        description: r.markdown,
        content: r.content,
        status: status === undefined ? null : { id: status.id, name: status.name, type: status.type ?? "open", color: status.color },
        category: ref(r.categoryId),
        productArea: ref(r.productAreaId),
        owner: person(r.ownerId),
        author: r.authorId === null ? null : person(r.authorId, r.authorName),
        voteCount: r.voteCount,
        commentCount: r.commentCount,
        mergedInto: r.mergedInto,
        mergedAt: r.mergedAt,
        moderationState: r.moderationState,
        pinned: r.pinned,
        locked: r.locked,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt
      }
    })
  })

export const featureRequestOf = (view: Pick<BoardView, "options" | "board">, record: RequestRecord) =>
  Effect.map(featureRequestsOf(view, [record]), (items) => items[0]!)

/** The DTO of one option kind: statuses also show their type and whether new requests start there. */
const optionSchemas = new Map<string, Schema.Top>()
export const optionSchema = (kind: OptionKind, identifier: string): Schema.Top => {
  const known = optionSchemas.get(identifier)
  if (known !== undefined) return known
  const made = makeOptionSchema(kind, identifier)
  optionSchemas.set(identifier, made)
  return made
}

const makeOptionSchema = (kind: OptionKind, identifier: string) => {
  const common = {
    id: Id,
    boardId: Id,
    name: Schema.String,
    description: Schema.String,
    color: Schema.String,
    position: Schema.Number.annotate({ description: "0-based order among the board's others of this kind" }),
    createdAt: Timestamp,
    updatedAt: Timestamp
  }
  return kind === "status"
    ? Schema.Struct({ ...common, type: StatusType, isDefault: Schema.Boolean }).annotate({ identifier })
    : Schema.Struct(common).annotate({ identifier })
}

export const optionDto = (option: BoardOption) => {
  const { kind, type, isDefault, ...common } = option
  return kind === "status" ? { ...common, type: type ?? "open", isDefault } : common
}

export const exampleBoard: typeof Board.Type = {
  id: examples.boardId,
  workspaceId: examples.workspaceId,
  name: "Product ideas",
  slug: "product-ideas",
  key: "PRODUCTIDE",
  description: "Tell us what to build next",
  visibility: "public",
  settings: {
    whoMayPost: "anyone",
    whoMayVote: "anyone",
    anonymousVoting: false,
    anonymousVotesPerHour: 20,
    moderation: false,
    allowComments: true
  },
  archived: false,
  archivedAt: null,
  createdBy: examples.userId,
  createdAt: examples.at,
  updatedAt: examples.at
}

export const exampleFeatureRequest: FeatureRequest = {
  id: examples.featureRequestId,
  shortId: "FR-12",
  reference: "PRODUCTIDE-12",
  boardId: examples.boardId,
  title: "Dark mode",
  description: "A dark theme for the **whole** app.",
  content: {
    type: "doc",
    content: [
      {
        type: "paragraph",
        content: [
          { type: "text", text: "A dark theme for the " },
          { type: "text", text: "whole", marks: [{ type: "bold" }] },
          { type: "text", text: " app." }
        ]
      }
    ]
  },
  status: { id: examples.statusId, name: "Open", type: "open", color: "#6b7280" },
  category: null,
  productArea: null,
  owner: null,
  author: { userId: examples.userId, name: "Alice" },
  voteCount: 0,
  commentCount: 0,
  mergedInto: null,
  mergedAt: null,
  moderationState: "approved",
  pinned: false,
  locked: false,
  createdAt: examples.at,
  updatedAt: examples.at
}

export const Subscription = Schema.Struct({ subscribed: Schema.Boolean }).annotate({ identifier: "FeedbackSubscription" })

export const FeedbackEvent = Schema.Struct({
  seq: Schema.Number,
  type: Schema.String,
  entityId: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown),
  actor: Person,
  at: Timestamp
}).annotate({ identifier: "FeedbackEvent" })

export const FeedbackEventList = Schema.Struct({ items: Schema.Array(FeedbackEvent) }).annotate({ identifier: "FeedbackEventList" })

/** Events as DTOs; internal notes' events only for the team. */
export const eventsView = (
  events: ReadonlyArray<{ seq: number; type: string; entityId: string; data: Record<string, unknown>; actorId: string; at: string }>,
  team: boolean
) =>
  Effect.map(names(events.map((e) => e.actorId)), (person) =>
    events
      .filter((e) => team || e.data.internal !== true)
      .map((e) => ({ seq: e.seq, type: e.type, entityId: e.entityId, data: e.data, actor: person(e.actorId)!, at: e.at }))
  )

export { Board }
