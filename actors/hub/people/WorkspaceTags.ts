/**
 * Tags on calls: one `hubWorkspaceTags` actor per workspace, persisted before
 * every reply, holding the workspace's tags and which calls carry which tag
 * (calls belong to the calls service; they are named here by call id only).
 * Tag names are unique in a workspace, case-insensitively.
 */
import { randomUUID } from "node:crypto"
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import { HubCallTagNotFound, HubTagNameTaken, HubTagNotFound, HubUnknownCallTag, TooManyCallTags, TooManyHubTags } from "../HubErrors.ts"
import { Id, Name, now, Timestamp } from "../../Fields.ts"

export const MAX_TAGS = 500
export const MAX_TAGS_PER_CALL = 50

export const TagColor = Schema.String.check(Schema.isPattern(/^#[0-9a-fA-F]{6}$/, { expected: "a #RRGGBB color" })).annotate({
  examples: ["#3b82f6"]
})
export const TagName = Name(60)

export const StoredTag = Schema.Struct({
  id: Id,
  name: Schema.String,
  color: Schema.NullOr(TagColor),
  createdBy: Id,
  createdAt: Timestamp,
  updatedAt: Timestamp
})
export type StoredTag = typeof StoredTag.Type

export const TagsState = Schema.Struct({
  tags: Schema.Record(Schema.String, StoredTag),
  /** Call id (decimal) → tag ids, in the order they were added. */
  callTags: Schema.Record(Schema.String, Schema.Array(Id))
})
export type TagsState = typeof TagsState.Type

export const TagWithCount = Schema.Struct({ ...StoredTag.fields, callCount: Schema.Number })

const nameTaken = (state: TagsState, name: string, except?: string) =>
  Object.values(state.tags).some((tag) => tag.id !== except && tag.name.toLowerCase() === name.toLowerCase())

const tagOf = (state: TagsState, tagId: string) =>
  state.tags[tagId] === undefined ? Effect.fail(new HubTagNotFound()) : Effect.succeed(state.tags[tagId]!)

export const countsOf = (state: TagsState): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>()
  for (const ids of Object.values(state.callTags)) for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1)
  return counts
}

export const WorkspaceTags = Actor<TagsState>()({
  kind: "hubWorkspaceTags",
  state: TagsState,
  initial: () => ({ tags: {}, callTags: {} }),
  messages: {
    view: { payload: Schema.Struct({}), success: TagsState, error: Schema.Never },
    create: {
      payload: Schema.Struct({ name: TagName, color: Schema.NullOr(TagColor), by: Id }),
      success: StoredTag,
      error: Schema.Union([TooManyHubTags, HubTagNameTaken])
    },
    update: {
      payload: Schema.Struct({ tagId: Id, name: Schema.optionalKey(TagName), color: Schema.optionalKey(Schema.NullOr(TagColor)) }),
      success: StoredTag,
      error: Schema.Union([HubTagNotFound, HubTagNameTaken])
    },
    delete: { payload: Schema.Struct({ tagId: Id }), success: StoredTag, error: HubTagNotFound },
    /** Replaces the call's tags; every id must be a tag of this workspace. */
    setCallTags: {
      payload: Schema.Struct({ callId: Schema.Number, tagIds: Schema.Array(Id) }),
      success: Schema.Array(StoredTag),
      error: Schema.Union([HubUnknownCallTag, TooManyCallTags])
    },
    removeCallTag: {
      payload: Schema.Struct({ callId: Schema.Number, tagId: Id }),
      success: Schema.Array(StoredTag),
      error: HubCallTagNotFound
    }
  },
  handlers: {
    view: (_, ctx) => Effect.succeed(ctx.state),
    create: ({ name, color, by }, ctx) =>
      Effect.gen(function* () {
        if (Object.keys(ctx.state.tags).length >= MAX_TAGS) return yield* new TooManyHubTags({ max: MAX_TAGS })
        if (nameTaken(ctx.state, name)) return yield* new HubTagNameTaken({ name })
        const at = now()
        const tag: StoredTag = { id: randomUUID(), name, color, createdBy: by, createdAt: at, updatedAt: at }
        ctx.setState({ ...ctx.state, tags: { ...ctx.state.tags, [tag.id]: tag } })
        return tag
      }),
    update: ({ tagId, name, color }, ctx) =>
      Effect.gen(function* () {
        const current = yield* tagOf(ctx.state, tagId)
        if (name !== undefined && nameTaken(ctx.state, name, tagId)) return yield* new HubTagNameTaken({ name })
        const tag: StoredTag = {
          ...current,
          name: name ?? current.name,
          color: color === undefined ? current.color : color,
          updatedAt: now()
        }
        ctx.setState({ ...ctx.state, tags: { ...ctx.state.tags, [tagId]: tag } })
        return tag
      }),
    delete: ({ tagId }, ctx) =>
      Effect.gen(function* () {
        const tag = yield* tagOf(ctx.state, tagId)
        const tags = { ...ctx.state.tags }
        delete tags[tagId]
        const callTags = Object.fromEntries(
          Object.entries(ctx.state.callTags)
            .map(([callId, ids]) => [callId, ids.filter((id) => id !== tagId)] as const)
            .filter(([, ids]) => ids.length > 0)
        )
        ctx.setState({ tags, callTags })
        return tag
      }),
    setCallTags: ({ callId, tagIds }, ctx) =>
      Effect.gen(function* () {
        const distinct = [...new Set(tagIds)]
        const unknown = tagIds.findIndex((id) => ctx.state.tags[id] === undefined)
        if (unknown >= 0) return yield* new HubUnknownCallTag({ index: unknown })
        if (distinct.length > MAX_TAGS_PER_CALL) return yield* new TooManyCallTags({ max: MAX_TAGS_PER_CALL })
        const callTags = { ...ctx.state.callTags, [String(callId)]: distinct }
        if (distinct.length === 0) delete callTags[String(callId)]
        ctx.setState({ ...ctx.state, callTags })
        return distinct.map((id) => ctx.state.tags[id]!)
      }),
    removeCallTag: ({ callId, tagId }, ctx) =>
      Effect.gen(function* () {
        const current = ctx.state.callTags[String(callId)] ?? []
        if (!current.includes(tagId)) return yield* new HubCallTagNotFound()
        const rest = current.filter((id) => id !== tagId)
        const callTags = { ...ctx.state.callTags, [String(callId)]: rest }
        if (rest.length === 0) delete callTags[String(callId)]
        ctx.setState({ ...ctx.state, callTags })
        return rest.map((id) => ctx.state.tags[id]!)
      })
  }
})
