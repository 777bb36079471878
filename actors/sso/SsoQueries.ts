/**
 * Reads across the workspaces' SSO actors (their persisted state): which
 * workspace claims an e-mail domain; and the single-use login states of
 * flows under way.
 */
import { Effect, Schema } from "effect"
import { query } from "../../persistence/Sql.ts"
import * as SqlSchema from "../../persistence/SqlSchema.ts"

const findByDomain = SqlSchema.findAll({
  Request: Schema.String,
  Result: Schema.Struct({ workspaceId: Schema.String }),
  execute: (domain) => [
    `SELECT id AS "workspaceId" FROM actor_state
      WHERE kind = 'workspaceSso' AND (state->>'configured')::boolean AND state->'domains' @> jsonb_build_array($1::text)
      ORDER BY id`,
    [domain]
  ]
})

/** The workspace whose SSO claims the domain, if any. */
export const workspaceOfDomain = (domain: string) => Effect.map(findByDomain(domain), (rows) => rows[0]?.workspaceId)

export const domainOfEmail = (email: string) =>
  email
    .slice(email.lastIndexOf("@") + 1)
    .trim()
    .toLowerCase()

export interface LoginState {
  readonly state: string
  readonly workspaceId: string
  readonly nonce: string
  readonly codeVerifier: string
  readonly bindingHash: string
  readonly redirectUri: string
  readonly expiresAt: string
}

export const saveLoginState = (login: LoginState) =>
  Effect.gen(function* () {
    // Expired flows are swept as new ones start.
    yield* query("DELETE FROM sso_login_states WHERE expires_at < now()")
    yield* query(
      `INSERT INTO sso_login_states (state, workspace_id, nonce, code_verifier, binding_hash, redirect_uri, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [login.state, login.workspaceId, login.nonce, login.codeVerifier, login.bindingHash, login.redirectUri, login.expiresAt]
    )
  })

/** Takes the state out (single use): a second callback with it finds nothing. */
export const takeLoginState = (state: string) =>
  Effect.map(
    query<LoginState>(
      `DELETE FROM sso_login_states WHERE state = $1
       RETURNING state, workspace_id AS "workspaceId", nonce, code_verifier AS "codeVerifier", binding_hash AS "bindingHash",
                 redirect_uri AS "redirectUri", expires_at AS "expiresAt"`,
      [state]
    ),
    (rows) => rows[0]
  )
