/**
 * `npm start -- --demo`: on an empty store, seed a demo user, a workspace and
 * an API key, and tell a new user how to look around.
 */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import { Account } from "../actors/identity/Account.ts"
import { ApiKey, mintKey } from "../actors/identity/ApiKey.ts"
import { anyAccount } from "../actors/identity/IdentityQueries.ts"
import { Workspace } from "../actors/identity/Workspace.ts"
import { ActorSystem } from "../runtime/ActorSystem.ts"
import { scopes } from "./Scopes.ts"

export const DEMO_EMAIL = "demo@atrium.local"
export const DEMO_PASSWORD = "atrium-demo-password"

export const seedDemo = (origin: string) =>
  Effect.gen(function* () {
    if (yield* anyAccount) {
      return `Demo: the store is not empty; log in as ${DEMO_EMAIL} / ${DEMO_PASSWORD} if you seeded it before.`
    }
    const actors = yield* ActorSystem
    const user = yield* actors.ask(Account, DEMO_EMAIL, "register", { name: "Demo User", password: DEMO_PASSWORD })
    const workspace = yield* actors.ask(Workspace, randomUUID(), "create", { by: user.id, name: "Demo workspace" })
    const key = mintKey()
    yield* actors.ask(ApiKey, randomUUID(), "create", {
      workspaceId: workspace.id,
      name: "Demo key",
      scopes: Object.keys(scopes),
      createdBy: user.id,
      prefix: key.prefix,
      hash: key.hash
    })
    return [
      "Demo data seeded:",
      `  user       ${DEMO_EMAIL} / ${DEMO_PASSWORD}`,
      `  workspace  ${workspace.id} (Demo workspace)`,
      `  API key    ${key.key}   (shown once)`,
      "Try:",
      `  curl -s ${origin}/hub/v1/workspaces -H 'X-API-Key: ${key.key}'`,
      `  curl -s ${origin}/pm/v1/auth/login -H 'content-type: application/json' -d '{"email":"${DEMO_EMAIL}","password":"${DEMO_PASSWORD}"}'`
    ].join("\n")
  })
