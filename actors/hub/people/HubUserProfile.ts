/**
 * A user's hub profile beside their identity account (which keeps the name
 * and e-mail): job title, company, pronouns, a short bio, the names
 * transcripts may give them as a speaker (so their talk is attributed to
 * them), and the workspace new recordings go to by default. One persisted
 * `hubUserProfile` actor per user.
 */
import { Effect, Schema } from "effect"
import { Actor } from "../../../runtime/Actor.ts"
import { Id, Name, now, Timestamp } from "../../Fields.ts"

const Text = (max: number) => Schema.NullOr(Schema.String.check(Schema.isMaxLength(max)))

export const ProfileFields = Schema.Struct({
  jobTitle: Text(200),
  company: Text(200),
  pronouns: Text(50),
  phone: Text(50),
  bio: Text(2000)
})
export type ProfileFields = typeof ProfileFields.Type

export const MAX_SPEAKER_ALIASES = 10
export const SpeakerAliases = Schema.Array(Name(100)).check(Schema.isMaxLength(MAX_SPEAKER_ALIASES))

export const HubProfile = Schema.Struct({
  ...ProfileFields.fields,
  speakerAliases: SpeakerAliases,
  defaultWorkspaceId: Schema.NullOr(Id),
  updatedAt: Schema.NullOr(Timestamp)
}).annotate({ identifier: "HubProfile" })
export type HubProfile = typeof HubProfile.Type

export const emptyProfile: HubProfile = {
  jobTitle: null,
  company: null,
  pronouns: null,
  phone: null,
  bio: null,
  speakerAliases: [],
  defaultWorkspaceId: null,
  updatedAt: null
}

export const ProfilePatch = Schema.Struct(
  Object.fromEntries(Object.entries(ProfileFields.fields).map(([key, field]) => [key, Schema.optionalKey(field)])) as {
    [K in keyof typeof ProfileFields.fields]: Schema.optionalKey<(typeof ProfileFields.fields)[K]>
  }
)

const stamp = (state: HubProfile, patch: Partial<HubProfile>): HubProfile => ({ ...state, ...patch, updatedAt: now() })

export const HubUserProfile = Actor<HubProfile>()({
  kind: "hubUserProfile",
  state: HubProfile,
  initial: () => emptyProfile,
  messages: {
    view: { payload: Schema.Struct({}), success: HubProfile, error: Schema.Never },
    update: { payload: ProfilePatch, success: HubProfile, error: Schema.Never },
    setSpeakerAliases: { payload: Schema.Struct({ aliases: SpeakerAliases }), success: HubProfile, error: Schema.Never },
    setDefaultWorkspace: { payload: Schema.Struct({ workspaceId: Schema.NullOr(Id) }), success: HubProfile, error: Schema.Never }
  },
  handlers: {
    view: (_, ctx) => Effect.succeed(ctx.state),
    update: (patch, ctx) =>
      Effect.sync(() => {
        const next = stamp(ctx.state, Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)))
        ctx.setState(next)
        return next
      }),
    setSpeakerAliases: ({ aliases }, ctx) =>
      Effect.sync(() => {
        // Case-insensitively distinct, in the order given.
        const seen = new Set<string>()
        const distinct = aliases.filter((alias) => !seen.has(alias.toLowerCase()) && seen.add(alias.toLowerCase()))
        const next = stamp(ctx.state, { speakerAliases: distinct })
        ctx.setState(next)
        return next
      }),
    setDefaultWorkspace: ({ workspaceId }, ctx) =>
      Effect.sync(() => {
        const next = stamp(ctx.state, { defaultWorkspaceId: workspaceId })
        ctx.setState(next)
        return next
      })
  }
})
