/**
 * pm tag "Workspace Sso Resource" (10): a workspace's OpenID Connect single
 * sign-on, managed by its admins (user sessions only): the provider (issuer,
 * client, scopes), a connection test against the issuer's discovery
 * document and keys, the e-mail domains that sign in through it (each domain
 * belongs to one workspace), enforcement (password login refused for those
 * domains' members), the role of members created just in time, and the
 * recent sign-ins.
 */
import { Effect, Schema } from "effect"
import { AssignableRole } from "../../../actors/identity/Workspace.ts"
import { discover } from "../../../actors/sso/Oidc.ts"
import { Domain, SsoLogin, SsoView, WorkspaceSso } from "../../../actors/sso/SsoConfig.ts"
import { workspaceOfDomain } from "../../../actors/sso/SsoQueries.ts"
import { checkOutboundUrl, privateUrlsAllowed } from "../../../actors/webhooks/OutboundAddress.ts"
import { Id } from "../../../actors/Fields.ts"
import type { PayloadOf } from "../../../runtime/Actor.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { workspaceRole } from "../../Access.ts"
import { type RequestContext, tagGroup } from "../../Operation.ts"
import { WorkspaceIdParams } from "./Shared.ts"
import { workspaceSsoExamples } from "./WorkspaceSso.examples.ts"
const base = "/v1/workspaces/{workspaceId}/sso"

const Issuer = Schema.String.check(
  Schema.isMaxLength(500),
  Schema.isPattern(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
    expected: "an issuer URL without query or fragment (https://login.example.com)"
  })
)
const ClientId = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(300))
const ClientSecret = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(1000))
const Scopes = Schema.Array(
  Schema.String.check(Schema.isPattern(/^[\x21\x23-\x5b\x5d-\x7e]{1,100}$/, { expected: "an OAuth scope token" }))
).check(Schema.isMaxLength(20))

const ssoAdmin = (context: RequestContext, workspaceId: string) => workspaceRole(context, workspaceId, "admin")

/** Plain http only where private addresses are allowed (local tests); a provider is reached over TLS. */
const secureIssuer = (issuer: string | undefined) =>
  issuer === undefined || issuer.startsWith("https://") || privateUrlsAllowed()
    ? Effect.void
    : Effect.fail(reject("invalid", "The issuer must be an https URL", [{ path: "body.issuer", message: "must be https" }]))

const ask = <Tag extends keyof typeof WorkspaceSso.messages & string>(
  workspaceId: string,
  message: Tag,
  payload: PayloadOf<typeof WorkspaceSso, Tag>
) => Effect.flatMap(ActorSystem, (system) => system.ask(WorkspaceSso, workspaceId, message, payload))

const ProviderFields = {
  issuer: Issuer,
  clientId: ClientId,
  clientSecret: ClientSecret,
  scopes: Schema.optionalKey(Scopes),
  defaultRole: Schema.optionalKey(AssignableRole),
  jitProvisioning: Schema.optionalKey(Schema.Boolean),
  enabled: Schema.optionalKey(Schema.Boolean)
}

const DomainParams = Schema.Struct({ workspaceId: Id, domain: Domain })

const { operation } = tagGroup("pm", "Workspace Sso Resource", workspaceSsoExamples)

export const workspaceSsoOperations = [
  operation({
    operationId: "getWorkspaceSso",
    method: "GET",
    path: base,
    summary: "The workspace's single sign-on settings (admin; the client secret is never shown)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Settings", schema: SsoView }, 404: { description: "Not configured" } },
    handler: ({ params }, context) => Effect.flatMap(ssoAdmin(context, params.workspaceId), () => ask(params.workspaceId, "view", {}))
  }),
  operation({
    operationId: "configureWorkspaceSso",
    method: "PUT",
    path: base,
    summary: "Set the OpenID Connect provider: issuer, client id and secret, scopes, role of new members (admin)",
    description:
      "Domains and enforcement are kept. Scopes default to openid email profile; new members join as `member` unless `defaultRole` says otherwise.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct(ProviderFields),
    responses: { 200: { description: "Settings", schema: SsoView } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* ssoAdmin(context, params.workspaceId)
        yield* secureIssuer(body.issuer)
        return yield* ask(params.workspaceId, "configure", {
          issuer: body.issuer.replace(/\/$/, ""),
          clientId: body.clientId,
          clientSecret: body.clientSecret,
          scopes: body.scopes ?? ["openid", "email", "profile"],
          defaultRole: body.defaultRole ?? "member",
          jitProvisioning: body.jitProvisioning ?? true,
          enabled: body.enabled ?? true
        })
      })
  }),
  operation({
    operationId: "updateWorkspaceSso",
    method: "PATCH",
    path: base,
    summary: "Change some single sign-on settings (admin); fields left out are unchanged",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({
      issuer: Schema.optionalKey(Issuer),
      clientId: Schema.optionalKey(ClientId),
      clientSecret: Schema.optionalKey(ClientSecret),
      scopes: Schema.optionalKey(Scopes),
      defaultRole: Schema.optionalKey(AssignableRole),
      jitProvisioning: Schema.optionalKey(Schema.Boolean),
      enabled: Schema.optionalKey(Schema.Boolean)
    }),
    responses: { 200: { description: "Settings", schema: SsoView }, 404: { description: "Not configured" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* ssoAdmin(context, params.workspaceId)
        yield* secureIssuer(body.issuer)
        return yield* ask(params.workspaceId, "update", body.issuer ? { ...body, issuer: body.issuer.replace(/\/$/, "") } : body)
      })
  }),
  operation({
    operationId: "deleteWorkspaceSso",
    method: "DELETE",
    path: base,
    summary: "Remove single sign-on (admin): domains are released and password login works again",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 204: { description: "Removed" }, 404: { description: "Not configured" } },
    handler: ({ params }, context) => Effect.flatMap(ssoAdmin(context, params.workspaceId), () => ask(params.workspaceId, "remove", {}))
  }),
  operation({
    operationId: "testWorkspaceSso",
    method: "POST",
    path: `${base}/test`,
    summary: "Check the provider: its discovery document (matching issuer) and its signing keys (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: {
      200: {
        description: "What was found; `ok` false with the problem otherwise",
        schema: Schema.Struct({
          ok: Schema.Boolean,
          issuer: Schema.String,
          authorizationEndpoint: Schema.NullOr(Schema.String),
          tokenEndpoint: Schema.NullOr(Schema.String),
          signingKeys: Schema.Number,
          problem: Schema.NullOr(Schema.String)
        })
      },
      404: { description: "Not configured" }
    },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* ssoAdmin(context, params.workspaceId)
        const settings = yield* ask(params.workspaceId, "settings", {})
        const failed = (problem: string) => ({
          ok: false,
          issuer: settings.issuer,
          authorizationEndpoint: null,
          tokenEndpoint: null,
          signingKeys: 0,
          problem
        })
        const document = yield* discover(settings.issuer).pipe(Effect.result)
        if (document._tag === "Failure") return failed(document.failure.message)
        const refusal = yield* Effect.promise(() => checkOutboundUrl(document.success.jwks_uri))
        if (refusal !== undefined) return failed(`The JWKS ${document.success.jwks_uri} is not allowed: ${refusal.reason}`)
        const keys = yield* Effect.tryPromise(() =>
          fetch(document.success.jwks_uri, { redirect: "error", signal: AbortSignal.timeout(10_000) }).then((r) => r.json())
        ).pipe(Effect.option)
        const count =
          keys._tag === "Some" && Array.isArray((keys.value as { keys?: unknown }).keys)
            ? (keys.value as { keys: Array<unknown> }).keys.length
            : 0
        return {
          ok: count > 0,
          issuer: settings.issuer,
          authorizationEndpoint: document.success.authorization_endpoint,
          tokenEndpoint: document.success.token_endpoint,
          signingKeys: count,
          problem: count > 0 ? null : "The JWKS has no keys or could not be read"
        }
      })
  }),
  operation({
    operationId: "listWorkspaceSsoDomains",
    method: "GET",
    path: `${base}/domains`,
    summary: "The e-mail domains that sign in through this workspace's provider (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Domains", schema: Schema.Struct({ items: Schema.Array(Domain), enforced: Schema.Boolean }) } },
    handler: ({ params }, context) =>
      Effect.gen(function* () {
        yield* ssoAdmin(context, params.workspaceId)
        const view = yield* ask(params.workspaceId, "view", {})
        return { items: view.domains, enforced: view.enforced }
      })
  }),
  operation({
    operationId: "addWorkspaceSsoDomain",
    method: "POST",
    path: `${base}/domains`,
    summary: "Claim an e-mail domain for this workspace's sign-in (admin); a domain belongs to one workspace",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({ domain: Domain }),
    responses: { 200: { description: "Settings", schema: SsoView }, 409: { description: "Claimed already" } },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* ssoAdmin(context, params.workspaceId)
        const owner = yield* Effect.orDie(workspaceOfDomain(body.domain))
        if (owner !== undefined && owner !== params.workspaceId)
          return yield* reject("conflict", "Another workspace signs this domain in", [
            { path: "body.domain", message: "claimed by another workspace" }
          ])
        return yield* ask(params.workspaceId, "addDomain", { domain: body.domain })
      })
  }),
  operation({
    operationId: "removeWorkspaceSsoDomain",
    method: "DELETE",
    path: `${base}/domains/{domain}`,
    summary: "Release an e-mail domain (admin); enforcement ends with the last domain",
    auth: "jwt",
    scopes: [],
    params: DomainParams,
    responses: { 200: { description: "Settings", schema: SsoView }, 404: { description: "No such domain" } },
    handler: ({ params }, context) =>
      Effect.flatMap(ssoAdmin(context, params.workspaceId), () => ask(params.workspaceId, "removeDomain", { domain: params.domain }))
  }),
  operation({
    operationId: "setWorkspaceSsoEnforcement",
    method: "PUT",
    path: `${base}/enforcement`,
    summary: "Enforce single sign-on (admin): members with a listed domain can no longer log in with a password",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    body: Schema.Struct({ enforced: Schema.Boolean }),
    responses: { 200: { description: "Settings", schema: SsoView }, 409: { description: "Not enabled, or no domain" } },
    handler: ({ params, body }, context) =>
      Effect.flatMap(ssoAdmin(context, params.workspaceId), () => ask(params.workspaceId, "setEnforced", { enforced: body.enforced }))
  }),
  operation({
    operationId: "listWorkspaceSsoLogins",
    method: "GET",
    path: `${base}/logins`,
    summary: "Recent single sign-on attempts, newest first: who, when, joined or refused and why (admin)",
    auth: "jwt",
    scopes: [],
    params: WorkspaceIdParams,
    responses: { 200: { description: "Sign-ins", schema: Schema.Struct({ items: Schema.Array(SsoLogin) }) } },
    handler: ({ params }, context) =>
      Effect.flatMap(ssoAdmin(context, params.workspaceId), () => Effect.map(ask(params.workspaceId, "logins", {}), (items) => ({ items })))
  })
]
