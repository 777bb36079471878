/**
 * Names instead of UUIDs, for Feature Requests (Lite) and Bug Reports
 * (Lite): a board by slug or name, statuses, categories, levels by name,
 * people by e-mail, requests and reports by reference (MOBILE-12,
 * MOBILE-B3: one board, by its key) or short id (FR-12, B-3) — all
 * case-insensitive. A name matching nothing answers 404 naming what was not
 * found; one matching several answers 409 listing the candidates. Lists
 * page by an opaque cursor bound to the filters it was issued for.
 */
import { createHash } from "node:crypto"
import { Effect, Schema } from "effect"
import { Board } from "../../actors/feedback/Board.ts"
import { boardIdsOfWorkspace } from "../../actors/feedback/BoardRows.ts"
import type { OptionKind } from "../../actors/feedback/FeedbackModel.ts"
import { Id, normalizeEmail } from "../../actors/Fields.ts"
import { usersByEmails } from "../../actors/identity/IdentityQueries.ts"
import { orDieStore } from "../../runtime/ActorStore.ts"
import { ActorSystem } from "../../runtime/ActorSystem.ts"
import { reject } from "../../runtime/Rejection.ts"
import { workspaceRole } from "../Access.ts"
import type { RequestContext } from "../Operation.ts"
import type { BoardCaller } from "./DeskAccess.ts"
import { callerOn } from "./FeedbackAccess.ts"

export const NameRef = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
  description: "A name (case-insensitive), a slug, or an id"
})
export const LiteEmail = Schema.String.check(
  Schema.isMaxLength(254),
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { expected: "an e-mail address" })
)
export const LiteLimit = Schema.FiniteFromString.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 100 })).annotate({
  description: "Page size, 1..100 (default 20)"
})
export const Cursor = Schema.String.check(Schema.isMaxLength(500)).annotate({ description: "nextCursor of the previous page" })
export { Id }
/** Where a Lite operation looks: the workspace, and a board when a short id is on several. */
export const Where = {
  workspaceId: Id,
  board: Schema.optionalKey(
    NameRef.annotate({
      description:
        "Board slug or name; needed only when a short id (FR-12, B-3) is on several boards — a reference (MOBILE-12) never needs it"
    })
  )
}

const candidates = <T>(what: string, name: string, path: string, rows: ReadonlyArray<T>, describe: (row: T) => string) =>
  rows.length === 0
    ? Effect.fail(reject("not_found", `No ${what} named "${name}"`, [{ path, message: `no ${what} named "${name}"` }]))
    : Effect.fail(
        reject(
          "conflict",
          `"${name}" names ${rows.length} ${what}s: ${rows.map(describe).join("; ")}. Use the slug, short id or id instead.`,
          rows.map((row) => ({ path, message: `candidate: ${describe(row)}` }))
        )
      )

/** Exactly one, else 404 / 409 naming the field. */
export const exactlyOne = <T>(
  rows: ReadonlyArray<T>,
  what: string,
  name: string,
  path: string,
  describe: (row: T) => string
): Effect.Effect<T, ReturnType<typeof reject>> =>
  rows.length === 1 ? Effect.succeed(rows[0]!) : candidates(what, name, path, rows, describe)

/** Every board of the workspace the caller may see, with their standing on each. */
export const visibleBoards = (context: RequestContext, workspaceId: string) =>
  Effect.gen(function* () {
    yield* workspaceRole(context, workspaceId)
    const system = yield* ActorSystem
    const ids = yield* orDieStore(boardIdsOfWorkspace(workspaceId))
    const callers = yield* Effect.forEach(
      ids,
      (id) =>
        Board.client(system)(id)
          .view({})
          .pipe(
            Effect.flatMap((view) => callerOn(context, view)),
            Effect.option
          ),
      { concurrency: 8 }
    )
    return callers.flatMap((c) => (c._tag === "Some" ? [c.value] : []))
  })

const lower = (s: string) => s.trim().toLowerCase()

/** The boards a ref names: its id, its slug, or its name. */
export const matchBoards = (boards: ReadonlyArray<BoardCaller>, ref: string) => {
  const key = lower(ref)
  const exact = boards.filter((b) => b.view.board.id === key || b.view.board.slug === key)
  return exact.length > 0 ? exact : boards.filter((b) => lower(b.view.board.name) === key)
}

/** One board by slug, name or id, among those the caller may see. */
export const boardByRef = (context: RequestContext, workspaceId: string, ref: string, path: string) =>
  Effect.flatMap(visibleBoards(context, workspaceId), (boards) =>
    exactlyOne(matchBoards(boards, ref), "board", ref, path, (b) => `${b.view.board.name} (${b.view.board.slug})`)
  )

/** The boards to search: the one named, or all the caller may see. */
export const boardsFor = (context: RequestContext, workspaceId: string, ref: string | undefined, path: string) =>
  ref === undefined ? visibleBoards(context, workspaceId) : Effect.map(boardByRef(context, workspaceId, ref, path), (b) => [b])

const kindLabel: Record<OptionKind, string> = {
  category: "category",
  product_area: "product area",
  status: "status",
  bug_status: "bug status level",
  severity: "severity level"
}

/** A board option of `kind` by name (or id). */
export const optionByName = (caller: BoardCaller, kind: OptionKind, name: string, path: string) =>
  exactlyOne(
    caller.view.options.filter((o) => o.kind === kind && (o.id === lower(name) || lower(o.name) === lower(name))),
    kindLabel[kind],
    name,
    path,
    (o) => o.name
  )

/** The ids of the board's options of `kind` named in a comma-separated list (each as `optionByName`); undefined without a list. */
export const optionIdsByName = (caller: BoardCaller, kind: OptionKind, names: string | undefined, path: string) =>
  names === undefined
    ? Effect.succeed(undefined)
    : Effect.forEach(csv(names) ?? [], (name) => Effect.map(optionByName(caller, kind, name, path), (o) => o.id))

/** A user by e-mail: 404 naming the field when nobody has it. */
export const userByEmail = (email: string, path: string) =>
  Effect.gen(function* () {
    const key = normalizeEmail(email)
    const user = (yield* orDieStore(usersByEmails([key]))).get(key)
    if (user === undefined)
      return yield* reject("not_found", `Nobody has the e-mail ${email}`, [{ path, message: "no user with this e-mail" }])
    return user
  })

/** Comma-separated names. */
export const csv = (value: string | undefined) =>
  value
    ?.split(",")
    .map((v) => v.trim())
    .filter((v) => v.length > 0)

interface CursorBody {
  readonly v: 1
  readonly at: string
  readonly id: string
  /** Fingerprint of the filters the cursor belongs to. */
  readonly f: string
}

export const fingerprint = (filters: Record<string, unknown>) => {
  const { cursor: _c, limit: _l, ...rest } = filters
  return createHash("sha256")
    .update(
      JSON.stringify(
        Object.keys(rest)
          .sort()
          .map((k) => [k, rest[k]])
      )
    )
    .digest("base64url")
    .slice(0, 16)
}

const badCursor = (message: string) => reject("invalid", `Invalid query.cursor: ${message}`, [{ path: "query.cursor", message }])

/**
 * One page of `items` (any order is fine: they are ordered by creation, then
 * id), after the cursor's position; items created while a client pages never
 * repeat or skip one.
 */
export const cursorPage = <T extends { readonly id: string; readonly createdAt: string }>(
  items: ReadonlyArray<T>,
  filters: Record<string, unknown>,
  cursor: string | undefined,
  limit: number
) =>
  Effect.gen(function* () {
    const f = fingerprint(filters)
    let after: { at: string; id: string } | undefined
    if (cursor !== undefined) {
      let body: CursorBody
      try {
        body = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
      } catch {
        return yield* badCursor("not a cursor this list issued")
      }
      if (body?.v !== 1 || typeof body.at !== "string" || typeof body.id !== "string")
        return yield* badCursor("not a cursor this list issued")
      if (body.f !== f) return yield* badCursor("issued for other filters; start again without a cursor")
      after = { at: body.at, id: body.id }
    }
    const ordered = [...items].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    const rest =
      after === undefined ? ordered : ordered.filter((i) => i.createdAt > after.at || (i.createdAt === after.at && i.id > after.id))
    const page = rest.slice(0, limit)
    const last = page[page.length - 1]
    const nextCursor =
      rest.length > limit && last !== undefined
        ? Buffer.from(JSON.stringify({ v: 1, at: last.createdAt, id: last.id, f } satisfies CursorBody)).toString("base64url")
        : null
    return { items: page, nextCursor }
  })

/** A Lite search's answer: what `itemsOf` finds on each of the boards, in turn, as one page (see `cursorPage`). */
export const searchPage = <T extends { readonly id: string; readonly createdAt: string }, E, R>(
  boards: ReadonlyArray<BoardCaller>,
  filters: { readonly cursor?: string; readonly limit?: number },
  itemsOf: (caller: BoardCaller) => Effect.Effect<ReadonlyArray<T>, E, R>
) => Effect.flatMap(Effect.forEach(boards, itemsOf), (found) => cursorPage(found.flat(), filters, filters.cursor, filters.limit ?? 20))

/** A Lite search's paging, after its filters. */
export const Paging = { limit: Schema.optionalKey(LiteLimit), cursor: Schema.optionalKey(Cursor) }

/**
 * What the Lite searches (bug reports, feature requests) declare alike: a
 * GET answering a cursor page of `item`, 404 / 409 for names; each adds its
 * id, path, summary, filters and handler (`searchPage` pages its items).
 */
export const liteSearch = <S extends Schema.Top>(item: S) =>
  ({
    method: "GET",
    description: "Oldest first (then by id); `nextCursor` continues after the last item and is null on the last page.",
    auth: "both",
    scopes: ["feedback:read"],
    responses: {
      200: { description: "A page", schema: Schema.Struct({ items: Schema.Array(item), nextCursor: Schema.NullOr(Schema.String) }) },
      404: { description: "A name or e-mail not found" },
      409: { description: "An ambiguous name" }
    }
  }) as const
