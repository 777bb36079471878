/**
 * hub tags "Beta Waitlist Resource" (1), "Feedback Resource" (1) and
 * "Internal Api Key Resource" (1): joining the beta, product feedback (stored,
 * and mailed to the platform admins, who read it in their outbox), and the
 * service-to-service check of an API key (X-Internal-Key only).
 */
import { Effect, Schema } from "effect"
import { sendMail } from "../../../actors/hub/Mail.ts"
import { FeedbackCategory, joinWaitlist, ProductFeedback, storeFeedback, WaitlistEntry } from "../../../actors/hub/SignupsAndFeedback.ts"
import { ApiKey, hashKey, isApiKey } from "../../../actors/identity/ApiKey.ts"
import { apiKeyIdByHash } from "../../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { Email, Name } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { userOf } from "../../Access.ts"
import { requireInternalKey } from "../../InternalKeys.ts"
import { tagGroup } from "../../Operation.ts"
import { platformAdmins } from "../../PlatformAdmin.ts"
import { betaWaitlistResourceExamples, feedbackResourceExamples, internalApiKeyResourceExamples } from "./PlatformResources.examples.ts"
const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

const INTERNAL_NOTE =
  "Internal: service-to-service only, authenticated by an internal key in `X-Internal-Key` (ATRIUM_INTERNAL_KEYS); user sessions and API keys get 403."

const KeyStanding = Schema.Struct({
  active: Schema.Boolean,
  keyId: Schema.NullOr(Schema.String),
  workspaceId: Schema.NullOr(Schema.String),
  userId: Schema.NullOr(Schema.String),
  scopes: Schema.Array(Schema.String)
}).annotate({ identifier: "HubApiKeyStanding" })

const inactive = { active: false, keyId: null, workspaceId: null, userId: null, scopes: [] }

const betaWaitlistResourceTag = tagGroup("hub", "Beta Waitlist Resource", betaWaitlistResourceExamples)
const feedbackResourceTag = tagGroup("hub", "Feedback Resource", feedbackResourceExamples)
const internalApiKeyResourceTag = tagGroup("hub", "Internal Api Key Resource", internalApiKeyResourceExamples)

export const platformResourceOperations = [
  betaWaitlistResourceTag.operation({
    operationId: "joinBetaWaitlist",
    method: "POST",
    path: "/v1/beta-waitlist",
    summary: "Join the beta waitlist; joining again with the same address answers the same place",
    auth: "public",
    scopes: [],
    body: Schema.Struct({
      email: Email,
      name: Schema.optionalKey(Name(200)),
      company: Schema.optionalKey(Name(200)),
      useCase: Schema.optionalKey(Text(2000))
    }),
    responses: { 202: { description: "On the list", schema: WaitlistEntry } },
    handler: ({ body }) => joinWaitlist(body)
  }),
  feedbackResourceTag.operation({
    operationId: "submitProductFeedback",
    method: "POST",
    path: "/v1/feedback",
    summary: "Tell the people who run Atrium what works and what does not",
    description: "Stored, and mailed to every platform admin (ATRIUM_PLATFORM_ADMINS), who read it under their e-mails (kind feedback).",
    auth: "jwt",
    scopes: [],
    body: Schema.Struct({
      category: FeedbackCategory,
      message: Schema.String.check(
        Schema.isMinLength(1),
        Schema.isMaxLength(5000),
        Schema.isPattern(/\S/, { expected: "a non-blank message" })
      ),
      rating: Schema.optionalKey(Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 5 }))),
      pageUrl: Schema.optionalKey(Text(2000))
    }),
    responses: {
      201: {
        description: "Received",
        schema: Schema.Struct({ ...ProductFeedback.fields, notifiedAdmins: Schema.Number }).annotate({ identifier: "ReceivedFeedback" })
      }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        const user = yield* userOf(context)
        const stored = yield* storeFeedback({
          userId: user.userId,
          email: user.email,
          category: body.category,
          message: body.message,
          rating: body.rating ?? null,
          pageUrl: body.pageUrl ?? null
        })
        const admins = [...platformAdmins()]
        yield* Effect.forEach(
          admins,
          (to) =>
            Effect.orDie(
              sendMail({
                to,
                kind: "feedback",
                subject: `Product feedback (${body.category}) from ${user.name || user.email}`,
                text: [
                  `From: ${user.name} <${user.email}>`,
                  `Category: ${body.category}${body.rating ? `, rating ${body.rating}/5` : ""}`,
                  ...(body.pageUrl ? [`Page: ${body.pageUrl}`] : []),
                  `Feedback id: ${stored.id}`,
                  "",
                  body.message
                ].join("\n")
              })
            ),
          { discard: true }
        )
        return { ...stored, notifiedAdmins: admins.length }
      })
  }),
  internalApiKeyResourceTag.operation({
    operationId: "introspectHubInternalApiKey",
    method: "POST",
    path: "/v1/internal/api-keys/introspect",
    summary: "Tell another service whether an API key is live, and for which workspace, user and scopes",
    description: `${INTERNAL_NOTE} An unknown, malformed or revoked key, or one whose creator left its workspace or whose workspace is deleted, answers \`active: false\` (never 404), as token introspection does.`,
    auth: "public",
    scopes: [],
    body: Schema.Struct({ key: Schema.String.check(Schema.isMaxLength(500)) }),
    responses: { 200: { description: "The key's standing", schema: KeyStanding }, 403: { description: "No valid X-Internal-Key" } },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        yield* requireInternalKey(context)
        if (!isApiKey(body.key)) return inactive
        const hash = hashKey(body.key)
        const keyId = yield* Effect.orDie(apiKeyIdByHash(hash))
        if (keyId === undefined) return inactive
        const actors = yield* ActorSystem
        const view = yield* ApiKey.client(actors)(keyId).resolve({ hash }).pipe(Effect.option)
        if (view._tag === "None") return inactive
        // The key acts with its creator's membership: none (left, or the workspace deleted) means it opens nothing.
        const role = yield* Workspace.client(actors)(view.value.workspaceId).roleOf({ userId: view.value.createdBy }).pipe(Effect.option)
        return {
          active: role._tag === "Some",
          keyId: view.value.id,
          workspaceId: view.value.workspaceId,
          userId: view.value.createdBy,
          scopes: view.value.scopes
        }
      })
  })
]
