/** hub tag "Demo User Resource" (1): a throwaway, logged-in account with its own seeded demo workspace. */
import { randomBytes } from "node:crypto"
import { Effect, Schema } from "effect"
import { Account } from "../../../actors/identity/Account.ts"
import { demosCreatedSince } from "../../../actors/hub/DemoWorkspaces.ts"
import { Email, Name } from "../../../actors/Fields.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { logIn, TokenPair } from "../../../actors/auth/SessionTokens.ts"
import { tagGroup } from "../../Operation.ts"
import { createDemoFor, demoUsersPerHour, SeededDemo } from "./DemoSeeding.ts"
import { demoUserResourceExamples } from "./DemoUserResource.examples.ts"

const { operation } = tagGroup("hub", "Demo User Resource", demoUserResourceExamples)

export const demoUserResourceOperations = [
  operation({
    operationId: "createDemoUser",
    method: "POST",
    path: "/v1/demo/users",
    summary: "Try Atrium without signing up: a throwaway account with its own seeded demo workspace, logged in",
    description: "The password is shown only now. Limited per hour for the whole server (DEMO_USERS_PER_HOUR, default 5): 429 beyond.",
    auth: "public",
    scopes: [],
    body: Schema.Struct({ name: Schema.optionalKey(Name(100)) }),
    responses: {
      201: {
        description: "Created, logged in, seeded",
        schema: Schema.Struct({ email: Email, password: Schema.String, session: TokenPair, demo: SeededDemo }).annotate({
          identifier: "DemoUser"
        })
      },
      429: { description: "Too many demo accounts this hour" }
    },
    handler: ({ body }, context) =>
      Effect.gen(function* () {
        if ((yield* demosCreatedSince("demo_user", 3_600_000)) >= demoUsersPerHour())
          return yield* reject("rate_limited", "Too many demo accounts were created this hour; try again later")
        const email = `demo-${randomBytes(6).toString("hex")}@demo.atrium.local`
        const password = randomBytes(18).toString("base64url")
        const name = body.name?.trim() ?? "Demo visitor"
        yield* Account.client(yield* ActorSystem)(email).register({ name, password })
        const session = yield* logIn(email, password)
        const demo = yield* createDemoFor(context, session.accessToken, { userId: session.user.id, email }, "Demo workspace", "demo_user")
        return { email, password, session, demo }
      })
  })
]
