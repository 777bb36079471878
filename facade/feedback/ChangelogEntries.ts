/**
 * feedback tag "Changelog Entry Resource" (3): a board's changelog — new,
 * improved, fixed — as draft, scheduled or published entries with rich
 * text, a milestone and the feature requests they ship. Publishing one
 * (now, or when its scheduled time has come) sets its requests to the
 * board's shipped status and notifies their voters and subscribers.
 */
import { Effect, Schema } from "effect"
import { RichTextInput, richTextFrom } from "../../actors/feedback/ArticleContent.ts"
import { ChangelogEntry, ChangelogKind, ChangelogState, IsoDateTime } from "../../actors/feedback/DeskRecords.ts"
import { SCHEDULER } from "../../actors/feedback/DeskCommand.ts"
import { Id, Name } from "../../actors/Fields.ts"
import { reject } from "../../runtime/Rejection.ts"
import { refusalCode } from "../HttpError.ts"
import { tagGroup } from "../Operation.ts"
import { type BoardCaller, onBoard, onChangelogEntry } from "./DeskAccess.ts"

import { requestOnBoard } from "./Milestones.ts"
import { changelogEntriesExamples } from "./ChangelogEntries.examples.ts"
import { desk } from "./BoardAsk.ts"

const DateTime = IsoDateTime

const EntryChanges = {
  title: Schema.optionalKey(Name(300)),
  kind: Schema.optionalKey(ChangelogKind),
  ...RichTextInput,
  state: Schema.optionalKey(ChangelogState),
  publishAt: Schema.optionalKey(Schema.NullOr(DateTime).annotate({ description: "When a scheduled entry publishes" })),
  milestoneId: Schema.optionalKey(Schema.NullOr(Id)),
  featureRequestIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(100)).annotate({ description: "The requests it ships" }))
}

type Changes = { [K in keyof typeof EntryChanges]?: (typeof EntryChanges)[K]["Type"] }

/** Checks what an entry refers to and when it publishes; the rich text as a document when given. */
const checked = (caller: BoardCaller, body: Changes, state: string, publishAt: string | null) =>
  Effect.gen(function* () {
    if (state === "scheduled" && (publishAt === null || Date.parse(publishAt) <= Date.now())) {
      return yield* reject("invalid", "Invalid body.publishAt: a scheduled entry needs a publish time in the future", [
        { path: "body.publishAt", message: "required in the future for a scheduled entry" }
      ])
    }
    for (const [index, id] of (body.featureRequestIds ?? []).entries()) yield* requestOnBoard(caller, id, `body.featureRequestIds.${index}`)
    if (body.milestoneId !== undefined && body.milestoneId !== null) {
      const milestones = yield* desk(caller.view.board.id).milestones({})
      if (!milestones.some((m) => m.id === body.milestoneId)) {
        return yield* reject("invalid", "Invalid body.milestoneId: no such milestone on this board", [
          { path: "body.milestoneId", message: "no such milestone on this board" }
        ])
      }
    }
    const given = body.markdown !== undefined || body.html !== undefined || body.content !== undefined
    return given ? yield* richTextFrom(body) : undefined
  })

/** The board's entries (publishing the scheduled ones whose time has come first), as the caller may see them. */
export const changelogFor = (boardId: string, team: boolean) =>
  Effect.gen(function* () {
    let entries = yield* desk(boardId).changelog({})
    if (entries.some((e) => e.state === "scheduled" && e.publishAt !== null && Date.parse(e.publishAt) <= Date.now())) {
      // An archived board's scheduled entries wait for its restore; its changelog still reads.
      yield* desk(boardId)
        .publishDue({ by: SCHEDULER, input: {} })
        .pipe(
          Effect.catchIf(
            (e) => refusalCode(e) === "conflict",
            () => Effect.void
          )
        )
      entries = yield* desk(boardId).changelog({})
    }
    return team ? entries : entries.filter((e) => e.state === "published")
  })

const { operation } = tagGroup("feedback", "Changelog Entry Resource", changelogEntriesExamples)

export const changelogEntryOperations = [
  operation({
    operationId: "createChangelogEntry",
    method: "POST",
    path: "/v1/boards/{boardId}/changelog",
    summary: "Write a changelog entry (team): new / improved / fixed, as a draft, scheduled or published",
    description:
      "Give the text as markdown, html or content (ProseMirror JSON). Publishing (state `published`, or `scheduled` with `publishAt`) sets the linked requests to the board's shipped status and notifies their voters and subscribers.",
    auth: "both",
    scopes: ["feedback:write"],
    params: Schema.Struct({ boardId: Id }),
    body: Schema.Struct({ ...EntryChanges, title: Name(300), kind: ChangelogKind }),
    responses: { 201: { description: "The entry", schema: ChangelogEntry } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onBoard(context, params.boardId, "team")
        const state = body.state ?? "draft"
        const content = yield* checked(caller, body, state, body.publishAt ?? null)
        const { markdown: _m, html: _h, content: _c, ...rest } = body
        return yield* desk(params.boardId).createEntry({
          by: caller.userId,
          input: {
            ...rest,
            workspaceId: caller.view.board.workspaceId,
            content: content ?? { type: "doc", content: [] }
          }
        })
      })
  }),
  operation({
    operationId: "listChangelogEntries",
    method: "GET",
    path: "/v1/boards/{boardId}/changelog",
    summary: "The board's changelog, newest first (drafts and scheduled entries only for the team)",
    auth: "both",
    scopes: ["feedback:read"],
    params: Schema.Struct({ boardId: Id }),
    query: Schema.Struct({ state: Schema.optionalKey(ChangelogState), kind: Schema.optionalKey(ChangelogKind) }),
    responses: { 200: { description: "Entries", schema: Schema.Struct({ items: Schema.Array(ChangelogEntry) }) } },
    handler: ({ params, query }, context) =>
      Effect.gen(function* () {
        const caller = yield* onBoard(context, params.boardId, "see")
        const entries = yield* changelogFor(params.boardId, caller.team)
        return {
          items: entries.filter(
            (e) => (query.state === undefined || e.state === query.state) && (query.kind === undefined || e.kind === query.kind)
          )
        }
      })
  }),
  operation({
    operationId: "updateChangelogEntry",
    method: "PATCH",
    path: "/v1/changelog/{changelogEntryId}",
    summary: "Change, schedule or publish a changelog entry (team)",
    description:
      "Fields left out are unchanged. Setting `state: published` publishes it now: its requests are set to shipped and their voters and subscribers notified (once). Back to draft unpublishes it.",
    auth: "both",
    scopes: ["feedback:write"],
    params: Schema.Struct({ changelogEntryId: Id }),
    body: Schema.Struct(EntryChanges),
    responses: { 200: { description: "The entry", schema: ChangelogEntry } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        const caller = yield* onChangelogEntry(context, params.changelogEntryId, "team")
        const before = (yield* desk(caller.view.board.id).changelog({})).find((e) => e.id === params.changelogEntryId)
        if (before === undefined) return yield* reject("not_found", "No such changelog entry")
        const content = yield* checked(
          caller,
          body,
          body.state ?? before.state,
          body.publishAt === undefined ? before.publishAt : body.publishAt
        )
        const { markdown: _m, html: _h, content: _c, ...rest } = body
        return yield* desk(caller.view.board.id).updateEntry({
          by: caller.userId,
          input: {
            entryId: before.id,
            ...rest,
            ...(content !== undefined ? { content } : {})
          }
        })
      })
  })
]
