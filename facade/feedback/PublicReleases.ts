/**
 * feedback tag "Public Board Resource", part 3 (8 of 33): what a public
 * board shows of its releases — milestones with their articles and
 * requests, the published changelog (also as an Atom feed) — and what its
 * public form asks for.
 * No authentication; drafts, internal notes and pending items never show.
 */
import { Effect, Schema } from "effect"
import type { BoardView } from "../../actors/feedback/Board.ts"
import { escapeHtml } from "../../richtext/RichText.ts"
import { ChangelogKind, type ChangelogEntry } from "../../actors/feedback/DeskRecords.ts"
import { shortIdOf } from "../../actors/feedback/FeedbackModel.ts"
import { articleOf } from "../../actors/feedback/ReleaseCommands.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { reject } from "../../runtime/Rejection.ts"
import { raw } from "../Operation.ts"
import { changelogFor } from "./ChangelogEntries.ts"
import { formSpec, PublicFormSpec } from "./PublicForm.ts"
import { publicOperation } from "./PublicBoard.ts"
import { approvedRequests, PublicFeatureRequest, publicBoard, publicRequests, SlugParams, WorkspaceQuery } from "./PublicViews.ts"
import { desk } from "./BoardAsk.ts"

const PublicMilestone = Schema.Struct({
  id: Id,
  name: Schema.String,
  description: Schema.String,
  date: Schema.NullOr(Schema.String),
  releasedAt: Schema.NullOr(Timestamp),
  hasArticle: Schema.Boolean,
  featureRequests: Schema.Array(Schema.Struct({ shortId: Schema.String, title: Schema.String, voteCount: Schema.Number }))
}).annotate({ identifier: "PublicMilestone" })

export const PublicChangelogEntry = Schema.Struct({
  id: Id,
  title: Schema.String,
  kind: ChangelogKind,
  markdown: Schema.String,
  html: Schema.String,
  publishedAt: Timestamp,
  milestoneId: Schema.NullOr(Id),
  featureRequests: Schema.Array(Schema.String).annotate({ description: "Short ids of the requests it shipped" })
}).annotate({ identifier: "PublicChangelogEntry" })

const PublicArticle = Schema.Struct({
  milestoneId: Id,
  markdown: Schema.String,
  html: Schema.String,
  updatedAt: Schema.NullOr(Timestamp)
}).annotate({
  identifier: "PublicMilestoneArticle"
})

export const publishedEntries = (view: BoardView) =>
  Effect.gen(function* () {
    const entries = (yield* changelogFor(view.board.id, false)).filter((e) => e.publishedAt !== null)
    const numbers = new Map((yield* approvedRequests(view.board.id)).map((r) => [r.id, r.number]))
    return entries.map((e: ChangelogEntry) => ({
      id: e.id,
      title: e.title,
      kind: e.kind,
      markdown: e.markdown,
      html: e.html,
      publishedAt: e.publishedAt!,
      milestoneId: e.milestoneId,
      featureRequests: e.featureRequestIds.flatMap((id) => (numbers.has(id) ? [shortIdOf(numbers.get(id)!)] : []))
    }))
  })

const publicMilestones = (view: BoardView) =>
  Effect.gen(function* () {
    const milestones = yield* desk(view.board.id).milestones({})
    const requests = new Map((yield* approvedRequests(view.board.id)).map((r) => [r.id, r]))
    return milestones.map((m) => ({
      id: m.id,
      name: m.name,
      description: m.description,
      date: m.date,
      releasedAt: m.releasedAt,
      hasArticle: m.hasArticle,
      featureRequests: m.featureRequestIds.flatMap((id) => {
        const r = requests.get(id)
        return r === undefined ? [] : [{ shortId: shortIdOf(r.number), title: r.title, voteCount: r.voteCount }]
      })
    }))
  })

const milestoneOf = (view: BoardView, milestoneId: string) =>
  Effect.flatMap(publicMilestones(view), (all) => {
    const m = all.find((x) => x.id === milestoneId)
    return m === undefined ? Effect.fail(reject("not_found", "No such milestone on this board")) : Effect.succeed(m)
  })

const MilestoneParams = Schema.Struct({ slug: SlugParams.fields.slug, milestoneId: Id })

const atom = (view: BoardView, origin: string, entries: ReadonlyArray<typeof PublicChangelogEntry.Type>) => {
  const base = `${origin}/feedback/v1/public/boards/${view.board.slug}`
  const updated = entries[0]?.publishedAt ?? view.board.updatedAt
  return [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom">`,
    `<title>${escapeHtml(`${view.board.name} changelog`)}</title>`,
    `<id>urn:uuid:${view.board.id}</id>`,
    `<link rel="self" href="${escapeHtml(`${base}/changelog/feed`)}"/>`,
    `<updated>${updated}</updated>`,
    ...entries.map((e) =>
      [
        `<entry>`,
        `<title>${escapeHtml(e.title)}</title>`,
        `<id>urn:uuid:${e.id}</id>`,
        `<link href="${escapeHtml(`${base}/changelog/${e.id}`)}"/>`,
        `<updated>${e.publishedAt}</updated>`,
        `<category term="${e.kind}"/>`,
        `<content type="html">${escapeHtml(e.html)}</content>`,
        `</entry>`
      ].join("")
    ),
    `</feed>`
  ].join("\n")
}

export const publicReleaseOperations = [
  publicOperation({
    operationId: "listPublicMilestones",
    method: "GET",
    path: "/v1/public/boards/{slug}/milestones",
    summary: "The public board's milestones by date, with the requests each delivers (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Milestones", schema: Schema.Struct({ items: Schema.Array(PublicMilestone) }) } },
    handler: ({ params, query: q }) =>
      Effect.map(Effect.flatMap(publicBoard(params.slug, q.workspaceId), publicMilestones), (items) => ({ items }))
  }),
  publicOperation({
    operationId: "getPublicMilestone",
    method: "GET",
    path: "/v1/public/boards/{slug}/milestones/{milestoneId}",
    summary: "One milestone of the public board (no authentication)",
    auth: "public",
    scopes: [],
    params: MilestoneParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "The milestone", schema: PublicMilestone } },
    handler: ({ params, query: q }) =>
      Effect.flatMap(publicBoard(params.slug, q.workspaceId), (view) => milestoneOf(view, params.milestoneId))
  }),
  publicOperation({
    operationId: "getPublicMilestoneArticle",
    method: "GET",
    path: "/v1/public/boards/{slug}/milestones/{milestoneId}/article",
    summary: "A milestone's article as Markdown and HTML (no authentication)",
    auth: "public",
    scopes: [],
    params: MilestoneParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "The article", schema: PublicArticle }, 404: { description: "No such milestone or no article" } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const milestone = yield* milestoneOf(view, params.milestoneId)
        if (!milestone.hasArticle) return yield* reject("not_found", "This milestone has no article")
        const article = yield* orDieStore(articleOf(milestone.id))
        return { milestoneId: milestone.id, markdown: article.markdown, html: article.html, updatedAt: article.updatedAt }
      })
  }),
  publicOperation({
    operationId: "listPublicMilestoneFeatureRequests",
    method: "GET",
    path: "/v1/public/boards/{slug}/milestones/{milestoneId}/feature-requests",
    summary: "The feature requests a milestone delivers, most voted first (no authentication)",
    auth: "public",
    scopes: [],
    params: MilestoneParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Requests", schema: Schema.Struct({ items: Schema.Array(PublicFeatureRequest) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        yield* milestoneOf(view, params.milestoneId)
        const milestone = (yield* desk(view.board.id).milestones({})).find((m) => m.id === params.milestoneId)!
        const all = yield* approvedRequests(view.board.id)
        const planned = all.filter((r) => milestone.featureRequestIds.includes(r.id)).sort((a, b) => b.voteCount - a.voteCount)
        return { items: yield* publicRequests(view, planned, all) }
      })
  }),
  publicOperation({
    operationId: "listPublicChangelog",
    method: "GET",
    path: "/v1/public/boards/{slug}/changelog",
    summary: "The public board's published changelog, newest first (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: Schema.Struct({ ...WorkspaceQuery.fields, kind: Schema.optionalKey(ChangelogKind) }),
    responses: { 200: { description: "Entries", schema: Schema.Struct({ items: Schema.Array(PublicChangelogEntry) }) } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        return { items: (yield* publishedEntries(view)).filter((e) => q.kind === undefined || e.kind === q.kind) }
      })
  }),
  publicOperation({
    operationId: "getPublicChangelogEntry",
    method: "GET",
    path: "/v1/public/boards/{slug}/changelog/{changelogEntryId}",
    summary: "One published changelog entry (no authentication)",
    auth: "public",
    scopes: [],
    params: Schema.Struct({ slug: SlugParams.fields.slug, changelogEntryId: Id }),
    query: WorkspaceQuery,
    responses: { 200: { description: "The entry", schema: PublicChangelogEntry } },
    handler: ({ params, query: q }) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        const entry = (yield* publishedEntries(view)).find((e) => e.id === params.changelogEntryId)
        if (entry === undefined) return yield* reject("not_found", "No such published changelog entry on this board")
        return entry
      })
  }),
  publicOperation({
    operationId: "getPublicChangelogFeed",
    method: "GET",
    path: "/v1/public/boards/{slug}/changelog/feed",
    summary: "The published changelog as an Atom feed (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "Atom 1.0", contentType: "application/atom+xml; charset=utf-8" } },
    handler: ({ params, query: q }, context) =>
      Effect.gen(function* () {
        const view = yield* publicBoard(params.slug, q.workspaceId)
        return raw("application/atom+xml; charset=utf-8", atom(view, context.origin, yield* publishedEntries(view)))
      })
  }),
  publicOperation({
    operationId: "getPublicFormSpec",
    method: "GET",
    path: "/v1/public/boards/{slug}/form",
    summary: "What the board's public form asks for: fields, limits and the honeypot field to leave empty (no authentication)",
    auth: "public",
    scopes: [],
    params: SlugParams,
    query: WorkspaceQuery,
    responses: { 200: { description: "The form", schema: PublicFormSpec } },
    handler: ({ params, query: q }) => Effect.map(publicBoard(params.slug, q.workspaceId), (view) => formSpec(view.board.settings))
  })
]
