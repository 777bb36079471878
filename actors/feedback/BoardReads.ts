/**
 * Reads the Board actor serves from memory: filtered and sorted request
 * lists, similar-request lookup (word overlap over titles and text, titles
 * weighted), the roadmap (requests grouped by status type) and counts.
 */
import { Schema } from "effect"
import { type BoardState, type RequestRecord, SortOrder, StatusType, sortRequests, statusTypes } from "./FeedbackModel.ts"

export const RequestFilter = Schema.Struct({
  /** Who asks: pending (moderated) requests show only to the team and their author. */
  viewerId: Schema.NullOr(Schema.String),
  team: Schema.Boolean,
  statusIds: Schema.optionalKey(Schema.Array(Schema.String)),
  statusTypes: Schema.optionalKey(Schema.Array(StatusType)),
  categoryId: Schema.optionalKey(Schema.String),
  productAreaId: Schema.optionalKey(Schema.String),
  authorId: Schema.optionalKey(Schema.String),
  ownerId: Schema.optionalKey(Schema.String),
  ids: Schema.optionalKey(Schema.Array(Schema.String)),
  /** Only the duplicates merged into this request. */
  mergedInto: Schema.optionalKey(Schema.String),
  q: Schema.optionalKey(Schema.String),
  includeMerged: Schema.Boolean,
  sort: SortOrder,
  offset: Schema.Number,
  limit: Schema.Number
})
export type RequestFilter = typeof RequestFilter.Type

const words = (text: string): Array<string> =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1)

const stem = (word: string) => (word.length > 4 ? word.replace(/(ing|ed|es|s)$/, "") : word)

/** How well `request` matches the query words (0: not at all): title words count three times. */
export const relevance = (request: RequestRecord, queryWords: ReadonlyArray<string>): number => {
  if (queryWords.length === 0) return 1
  const title = new Set(words(request.title).map(stem))
  const body = new Set(words(request.text).map(stem))
  let score = 0
  let matched = 0
  for (const word of queryWords.map(stem)) {
    const inTitle = title.has(word) || [...title].some((t) => word.length >= 3 && t.startsWith(word))
    const inBody = body.has(word)
    if (inTitle || inBody) matched++
    score += (inTitle ? 3 : 0) + (inBody ? 1 : 0)
  }
  return matched === 0 ? 0 : (score * matched) / queryWords.length
}

/** Whether the viewer may see the request at all (moderation). */
export const visibleTo = (request: RequestRecord, viewerId: string | null, team: boolean) =>
  team ||
  request.moderationState === "approved" ||
  (viewerId !== null && request.authorId === viewerId && request.moderationState === "pending")

export const filterRequests = (state: BoardState, filter: RequestFilter) => {
  const typeOf = new Map(state.options.filter((o) => o.kind === "status").map((o) => [o.id, o.type]))
  const ids = filter.ids === undefined ? undefined : new Set(filter.ids)
  const queryWords = filter.q === undefined ? [] : words(filter.q)
  const matching = state.requests.filter(
    (r) =>
      visibleTo(r, filter.viewerId, filter.team) &&
      (filter.includeMerged || r.mergedInto === null) &&
      (filter.mergedInto === undefined || r.mergedInto === filter.mergedInto) &&
      (ids === undefined || ids.has(r.id)) &&
      (filter.statusIds === undefined || (r.statusId !== null && filter.statusIds.includes(r.statusId))) &&
      (filter.statusTypes === undefined || filter.statusTypes.includes(typeOf.get(r.statusId ?? "") ?? "open")) &&
      (filter.categoryId === undefined || r.categoryId === filter.categoryId) &&
      (filter.productAreaId === undefined || r.productAreaId === filter.productAreaId) &&
      (filter.authorId === undefined || r.authorId === filter.authorId) &&
      (filter.ownerId === undefined || r.ownerId === filter.ownerId)
  )
  const ranked =
    queryWords.length === 0
      ? sortRequests(matching, filter.sort)
      : matching
          .map((r) => [r, relevance(r, queryWords)] as const)
          .filter(([, score]) => score > 0)
          .sort((a, b) => b[1] - a[1] || b[0].voteCount - a[0].voteCount)
          .map(([r]) => r)
  return { items: ranked.slice(filter.offset, filter.offset + filter.limit), total: ranked.length }
}

/** Requests grouped by the type of their status, each group in the order of the board's statuses, then by votes. */
export const roadmapOf = (state: BoardState, viewerId: string | null, team: boolean) => {
  const statuses = state.options.filter((o) => o.kind === "status")
  const visible = sortRequests(
    state.requests.filter((r) => r.mergedInto === null && visibleTo(r, viewerId, team)),
    "top"
  )
  return statusTypes.map((type) => ({
    type,
    statuses: statuses.filter((s) => s.type === type),
    requests: visible.filter((r) => statuses.find((s) => s.id === r.statusId)?.type === type)
  }))
}

export const BoardStats = Schema.Struct({
  requests: Schema.Number,
  votes: Schema.Number,
  comments: Schema.Number,
  merged: Schema.Number,
  pendingModeration: Schema.Number,
  newThisWeek: Schema.Number,
  byStatusType: Schema.Array(Schema.Struct({ type: StatusType, count: Schema.Number })),
  byStatus: Schema.Array(Schema.Struct({ statusId: Schema.String, name: Schema.String, count: Schema.Number })),
  byCategory: Schema.Array(Schema.Struct({ categoryId: Schema.String, name: Schema.String, count: Schema.Number }))
}).annotate({ identifier: "FeedbackBoardStats" })

export const statsOf = (state: BoardState): typeof BoardStats.Type => {
  const live = state.requests.filter((r) => r.mergedInto === null && r.moderationState === "approved")
  const statuses = state.options.filter((o) => o.kind === "status")
  const weekAgo = Date.now() - 7 * 24 * 3_600_000
  return {
    requests: live.length,
    votes: live.reduce((sum, r) => sum + r.voteCount, 0),
    comments: live.reduce((sum, r) => sum + r.commentCount, 0),
    merged: state.requests.filter((r) => r.mergedInto !== null).length,
    pendingModeration: state.requests.filter((r) => r.moderationState === "pending").length,
    newThisWeek: live.filter((r) => Date.parse(r.createdAt) >= weekAgo).length,
    byStatusType: statusTypes.map((type) => ({
      type,
      count: live.filter((r) => statuses.find((s) => s.id === r.statusId)?.type === type).length
    })),
    byStatus: statuses.map((s) => ({ statusId: s.id, name: s.name, count: live.filter((r) => r.statusId === s.id).length })),
    byCategory: state.options
      .filter((o) => o.kind === "category")
      .map((c) => ({ categoryId: c.id, name: c.name, count: live.filter((r) => r.categoryId === c.id).length }))
  }
}
