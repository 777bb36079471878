/**
 * A user's saved views over the calls of one workspace: named filters and a
 * sort order, private to the user. One persisted `hubUserViews` actor per
 * (user, workspace), addressed `<userId>/<workspaceId>`. `matches` applies a
 * view's filters to a call's facts.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import { Email, Id, Name, now, Timestamp } from "../../Fields.ts"
import { Instant } from "../calendar/CalendarEvent.ts"
import type { CallFacts } from "./CallDirectory.ts"

export const MAX_VIEWS = 100

export const ViewFilters = Schema.Struct({
  /** Words the call's name contains, case-insensitively. */
  text: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(200))),
  /** Calls carrying any of these tags. */
  tagIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(20))),
  /** Calls any of these users took part in. */
  participantUserIds: Schema.optionalKey(Schema.Array(Id).check(Schema.isMaxLength(50))),
  attendeeEmails: Schema.optionalKey(Schema.Array(Email).check(Schema.isMaxLength(50))),
  createdFrom: Schema.optionalKey(Instant),
  createdTo: Schema.optionalKey(Instant),
  statuses: Schema.optionalKey(Schema.Array(Schema.Literals(["queued", "processing", "ready", "failed"])).check(Schema.isMaxLength(4))),
  minDurationMinutes: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1440 }))),
  /** Only calls shared with the viewer. */
  sharedWithMe: Schema.optionalKey(Schema.Boolean)
}).annotate({ identifier: "CallViewFilters" })
export type ViewFilters = typeof ViewFilters.Type

export const ViewSort = Schema.Struct({
  field: Schema.Literals(["createdAt", "name", "duration"]),
  direction: Schema.Literals(["asc", "desc"])
})

export const StoredView = Schema.Struct({
  id: Id,
  name: Schema.String,
  filters: ViewFilters,
  sort: ViewSort,
  pinned: Schema.Boolean,
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type StoredView = typeof StoredView.Type

export const ViewsState = Schema.Struct({ views: Schema.Record(Schema.String, StoredView) })
export type ViewsState = typeof ViewsState.Type

export const viewsActorId = (userId: string, workspaceId: string) => `${userId}/${workspaceId}`

export const ViewName = Name(100)

export interface CallContext {
  readonly tagIds: ReadonlySet<string>
  readonly sharedWithViewer: boolean
}

/** Whether a call passes every filter the view sets. */
export const matches = (filters: ViewFilters, call: CallFacts, context: CallContext): boolean => {
  const created = Date.parse(call.createdAt)
  return (
    (filters.text === undefined || call.name.toLowerCase().includes(filters.text.toLowerCase())) &&
    (filters.tagIds === undefined || filters.tagIds.length === 0 || filters.tagIds.some((id) => context.tagIds.has(id))) &&
    (filters.participantUserIds === undefined ||
      filters.participantUserIds.length === 0 ||
      filters.participantUserIds.some((id) => call.participantUserIds.includes(id))) &&
    (filters.attendeeEmails === undefined ||
      filters.attendeeEmails.length === 0 ||
      filters.attendeeEmails.some((email) => call.attendeeEmails.includes(email.toLowerCase()))) &&
    (filters.createdFrom === undefined || created >= Date.parse(filters.createdFrom)) &&
    (filters.createdTo === undefined || created < Date.parse(filters.createdTo)) &&
    (filters.statuses === undefined || filters.statuses.length === 0 || filters.statuses.includes(call.status)) &&
    (filters.minDurationMinutes === undefined || call.durationMs >= filters.minDurationMinutes * 60_000) &&
    (filters.sharedWithMe !== true || context.sharedWithViewer)
  )
}

const viewOf = (state: ViewsState, viewId: string) =>
  state.views[viewId] === undefined ? Effect.fail(new UserViewNotFound()) : Effect.succeed(state.views[viewId]!)

export class UserViewNotFound extends Schema.TaggedError<UserViewNotFound>()("UserViewNotFound", {}) {
  override get message() {
    return "No such view"
  }
}

/** A user keeps at most `max` saved views per workspace. */
export class TooManyUserViews extends Schema.TaggedError<TooManyUserViews>()("TooManyUserViews", { max: Schema.Number }) {
  override get message() {
    return `At most ${this.max} saved views per workspace`
  }
}

export type UserViewError = UserViewNotFound | TooManyUserViews

export const UserViews = Actor<ViewsState>()({
  kind: "hubUserViews",
  state: ViewsState,
  initial: () => ({ views: {} }),
  messages: {
    view: { payload: Schema.Struct({}), success: ViewsState, error: Schema.Never },
    create: {
      payload: Schema.Struct({ name: ViewName, filters: ViewFilters, sort: ViewSort, pinned: Schema.Boolean }),
      success: StoredView,
      error: TooManyUserViews
    },
    update: {
      payload: Schema.Struct({
        viewId: Id,
        name: Schema.optionalKey(ViewName),
        filters: Schema.optionalKey(ViewFilters),
        sort: Schema.optionalKey(ViewSort),
        pinned: Schema.optionalKey(Schema.Boolean)
      }),
      success: StoredView,
      error: UserViewNotFound
    },
    delete: { payload: Schema.Struct({ viewId: Id }), success: StoredView, error: UserViewNotFound }
  },
  handlers: {
    view: (_, ctx) => Effect.succeed(ctx.state),
    create: (input, ctx) =>
      Effect.gen(function* () {
        if (Object.keys(ctx.state.views).length >= MAX_VIEWS) return yield* new TooManyUserViews({ max: MAX_VIEWS })
        const at = now()
        const view: StoredView = { id: randomUUID(), ...input, createdAt: at, updatedAt: at }
        ctx.setState({ views: { ...ctx.state.views, [view.id]: view } })
        return view
      }),
    update: ({ viewId, ...patch }, ctx) =>
      Effect.gen(function* () {
        const current = yield* viewOf(ctx.state, viewId)
        const defined = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined))
        const view: StoredView = { ...current, ...defined, updatedAt: now() }
        ctx.setState({ views: { ...ctx.state.views, [viewId]: view } })
        return view
      }),
    delete: ({ viewId }, ctx) =>
      Effect.gen(function* () {
        const view = yield* viewOf(ctx.state, viewId)
        const views = { ...ctx.state.views }
        delete views[viewId]
        ctx.setState({ views })
        return view
      })
  }
})
