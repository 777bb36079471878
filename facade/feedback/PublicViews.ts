/**
 * What an anonymous visitor of a public board may see, and nothing more:
 * the board by slug (only public, unarchived boards — anything else is 404),
 * approved requests, bug reports and comments (never pending, declined or
 * spam ones, never internal notes), people by display name (never an
 * e-mail, never a user id), no settings beyond what a visitor may do.
 * Reads come from the Board actor's and the desk's memory.
 */
import { Effect, Schema } from "effect"
import { Board, type BoardView } from "../../actors/feedback/Board.ts"
import { type BoardOption, type RequestRecord, shortIdOf, StatusType } from "../../actors/feedback/FeedbackModel.ts"
import { Id, Timestamp } from "../../actors/Fields.ts"
import { usersByIds } from "../../actors/identity/IdentityQueries.ts"
import { publicBoardsWithSlug } from "../../actors/feedback/PublicReads.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"

export const Slug = Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,99}$/, { expected: "a board slug (a-z, 0-9, -)" }))
export const SlugParams = Schema.Struct({ slug: Slug })
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
export const ShortRequestId = Schema.String.check(
  Schema.isPattern(new RegExp(`^(FR-\\d{1,9}|${UUID})$`, "i"), { expected: "a short id like FR-12, or an id" })
)
export const ShortBugId = Schema.String.check(
  Schema.isPattern(new RegExp(`^(B-\\d{1,9}|${UUID})$`, "i"), { expected: "a short id like B-12, or an id" })
)
export const VisitorId = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9_-]{8,64}$/, { expected: "8-64 letters, digits, - or _" })
).annotate({
  description: "An anonymous id the visitor's browser keeps (their vote fingerprint)"
})
export const WorkspaceQuery = Schema.Struct({
  workspaceId: Schema.optionalKey(Id.annotate({ description: "Which workspace's board, when several public boards share the slug" }))
})

const TTL_MILLIS = 5_000
const slugCache = new Map<
  string,
  { readonly at: number; readonly boards: ReadonlyArray<{ id: string; workspace_id: string; name: string }> }
>()

/** Public, unarchived boards with this slug (a few seconds' cache: the Board actor's view is checked on every read). */
const boardsWithSlug = (slug: string) => {
  const cached = slugCache.get(slug)
  if (cached !== undefined && Date.now() - cached.at < TTL_MILLIS) return Effect.succeed(cached.boards)
  return Effect.map(orDieStore(publicBoardsWithSlug(slug)), (boards) => {
    if (slugCache.size > 10_000) slugCache.clear()
    slugCache.set(slug, { at: Date.now(), boards })
    return boards
  })
}

const noBoard = reject("not_found", "No such public board")

/** The board's view from its actor, if it is (still) public and unarchived. */
const publicView = (slug: string, boardId: string) =>
  Effect.flatMap(ActorSystem, (system) =>
    Board.client(system)(boardId)
      .view({})
      .pipe(
        Effect.catchTag("BoardNotFound", () => Effect.fail(noBoard)),
        Effect.flatMap((view) => {
          if (view.board.visibility === "public" && !view.board.archived) return Effect.succeed(view)
          slugCache.delete(slug)
          return Effect.fail(noBoard)
        })
      )
  )

/** The public board a slug names (its view from the Board actor); 404 when none, 409 listing candidates when ambiguous. */
export const publicBoard = (slug: string, workspaceId?: string) => {
  const key = slug.toLowerCase()
  return Effect.flatMap(boardsWithSlug(key), (all) => {
    const boards = workspaceId === undefined ? all : all.filter((b) => b.workspace_id === workspaceId)
    if (boards.length === 0) return Effect.fail(noBoard)
    if (boards.length > 1) {
      return Effect.fail(
        reject(
          "conflict",
          `${boards.length} public boards are called "${slug}"; add ?workspaceId= to choose`,
          boards.map((b) => ({ path: "query.workspaceId", message: `candidate: ${b.name} [workspace ${b.workspace_id}]` }))
        )
      )
    }
    return publicView(key, boards[0]!.id)
  })
}

export const PublicOption = Schema.Struct({ id: Id, name: Schema.String, description: Schema.String, color: Schema.String }).annotate({
  identifier: "PublicFeedbackOption"
})
export const PublicStatus = Schema.Struct({ ...PublicOption.fields, type: StatusType }).annotate({ identifier: "PublicFeedbackStatus" })

const optionsOf = (view: BoardView, kind: BoardOption["kind"]) =>
  view.options.filter((o) => o.kind === kind).sort((a, b) => a.position - b.position)

/** A board's statuses as the public sees them (each with its type). */
export const publicStatuses = (view: BoardView) =>
  optionsOf(view, "status").map((o) => ({ id: o.id, name: o.name, description: o.description, color: o.color, type: o.type ?? "open" }))

export const publicOptions = (view: BoardView, kind: BoardOption["kind"]) =>
  optionsOf(view, kind).map((o) => ({
    id: o.id,
    name: o.name,
    description: o.description,
    color: o.color,
    ...(kind === "status" ? { type: o.type ?? "open" } : {})
  }))

export const PublicBoard = Schema.Struct({
  id: Id,
  slug: Schema.String,
  name: Schema.String,
  description: Schema.String,
  anonymousVoting: Schema.Boolean.annotate({ description: "Visitors may vote without an account" }),
  allowComments: Schema.Boolean,
  visitorComments: Schema.Boolean.annotate({ description: "Visitors may comment without an account" }),
  statuses: Schema.Array(PublicStatus),
  categories: Schema.Array(PublicOption),
  productAreas: Schema.Array(PublicOption)
}).annotate({ identifier: "PublicFeedbackBoard" })

/**
 * Built once per board state: the Board actor hands out the same board and
 * options objects until they change, so the reply built from them, and its
 * encoded body (cached by result in `Reply.ts`), last as long.
 */
const publicBoards = new WeakMap<BoardView["board"], { readonly options: BoardView["options"]; readonly reply: typeof PublicBoard.Type }>()

export const publicBoardOf = (view: BoardView): typeof PublicBoard.Type => {
  const known = publicBoards.get(view.board)
  if (known !== undefined && known.options === view.options) return known.reply
  const reply = buildPublicBoard(view)
  publicBoards.set(view.board, { options: view.options, reply })
  return reply
}

/** Visitors comment where the board takes comments and lets anyone post. */
export const visitorsMayComment = (settings: BoardView["board"]["settings"]) => settings.allowComments && settings.whoMayPost === "anyone"

const buildPublicBoard = (view: BoardView): typeof PublicBoard.Type => ({
  id: view.board.id,
  slug: view.board.slug,
  name: view.board.name,
  description: view.board.description,
  anonymousVoting: view.board.settings.anonymousVoting && view.board.settings.whoMayVote === "anyone",
  allowComments: view.board.settings.allowComments,
  visitorComments: visitorsMayComment(view.board.settings),
  statuses: publicStatuses(view),
  categories: publicOptions(view, "category"),
  productAreas: publicOptions(view, "product_area")
})

export const PublicRef = Schema.NullOr(Schema.Struct({ name: Schema.String, color: Schema.String }))
export const PublicStatusRef = Schema.NullOr(Schema.Struct({ name: Schema.String, color: Schema.String, type: StatusType }))

export const PublicFeatureRequest = Schema.Struct({
  id: Id,
  shortId: Schema.String,
  title: Schema.String,
  description: Schema.String.annotate({ description: "Markdown" }),
  status: PublicStatusRef,
  category: PublicRef,
  productArea: PublicRef,
  authorName: Schema.NullOr(Schema.String).annotate({ description: "Display name only" }),
  voteCount: Schema.Number,
  commentCount: Schema.Number,
  mergedInto: Schema.NullOr(Schema.String).annotate({ description: "Short id of the original this duplicate was merged into" }),
  pinned: Schema.Boolean,
  createdAt: Timestamp
}).annotate({ identifier: "PublicFeatureRequest" })
export type PublicFeatureRequest = typeof PublicFeatureRequest.Type

/** Display names of users (never their e-mail). */
export const displayNames = (ids: ReadonlyArray<string | null>) =>
  Effect.map(
    orDieStore(usersByIds(ids.filter((id): id is string => id !== null))),
    (users) => (id: string | null) => (id === null ? null : (users.get(id)?.name ?? null))
  )

/** Requests as a visitor sees them: only approved ones (callers filter), names instead of ids. */
export const publicRequests = (view: BoardView, records: ReadonlyArray<RequestRecord>, all: ReadonlyArray<RequestRecord> = records) =>
  Effect.map(displayNames(records.map((r) => r.authorId)), (nameOf) => {
    const options = new Map(view.options.map((o) => [o.id, o]))
    const numbers = new Map(all.map((r) => [r.id, r.number]))
    const ref = (id: string | null) => {
      const o = id === null ? undefined : options.get(id)
      return o === undefined ? null : { name: o.name, color: o.color }
    }
    return records.map(
      (r): PublicFeatureRequest => ({
        id: r.id,
        shortId: shortIdOf(r.number),
        title: r.title,
        description: r.markdown,
        status: (() => {
          const s = r.statusId === null ? undefined : options.get(r.statusId)
          return s === undefined ? null : { name: s.name, color: s.color, type: s.type ?? "open" }
        })(),
        category: ref(r.categoryId),
        productArea: ref(r.productAreaId),
        authorName: r.authorId === null ? r.authorName : nameOf(r.authorId),
        voteCount: r.voteCount,
        commentCount: r.commentCount,
        mergedInto: r.mergedInto === null ? null : numbers.has(r.mergedInto) ? shortIdOf(numbers.get(r.mergedInto)!) : null,
        pinned: r.pinned,
        createdAt: r.createdAt
      })
    )
  })

/** Approved requests of the board, merged ones included (they point to their original). */
export const approvedRequests = (boardId: string) =>
  Effect.map(
    Effect.flatMap(ActorSystem, (system) =>
      Board.client(system)(boardId).requests({ viewerId: null, team: false, includeMerged: true, sort: "new", offset: 0, limit: 1_000_000 })
    ),
    (page) => page.items.filter((r) => r.moderationState === "approved")
  )

/** One approved request by short id; 404 otherwise. */
export const publicRequestByShortId = (view: BoardView, shortId: string) =>
  Effect.gen(function* () {
    const byId = !/^FR-/i.test(shortId)
    const number = byId ? Number.NaN : Number(shortId.slice(3))
    const all = yield* approvedRequests(view.board.id)
    const record = all.find((r) => (byId ? r.id === shortId.toLowerCase() : r.number === number))
    if (record === undefined) return yield* reject("not_found", `No feature request ${shortId.toUpperCase()} on this board`)
    return { record, all }
  })

export const PublicComment = Schema.Struct({
  id: Id,
  parentId: Schema.NullOr(Id),
  authorName: Schema.NullOr(Schema.String),
  body: Schema.String,
  edited: Schema.Boolean,
  createdAt: Timestamp
}).annotate({ identifier: "PublicFeedbackComment" })
