/**
 * hub tag "Workspace Migration Resource" (1): move a workspace's hub data to
 * another Atrium deployment (another region or database) as one job: export
 * here (settings, members with their roles, pending invitations), import there
 * through the target's own public operations with a credential the caller
 * holds for it (settings written, every member and pending invitee invited
 * with their role). The job, its steps and outcome are recorded and answered.
 */
import { Effect, Schema } from "effect"
import { HubInvitations } from "../../../actors/hub/HubInvitations.ts"
import { finishMigration, type MigrationStep, startMigration, WorkspaceMigration } from "../../../actors/hub/WorkspaceMigrations.ts"
import { isApiKey } from "../../../actors/identity/ApiKey.ts"
import { usersByIds } from "../../../actors/identity/IdentityQueries.ts"
import { Workspace } from "../../../actors/identity/Workspace.ts"
import { Id } from "../../../actors/Fields.ts"
import { checkOutboundUrl } from "../../../actors/webhooks/OutboundAddress.ts"
import { ActorSystem } from "../../../runtime/ActorSystem.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf, workspaceRole } from "../../Access.ts"
import { operation } from "../../Operation.ts"
import { exampleWorkspace, WorkspaceParams } from "../../shared/WorkspaceAccess.ts"

const at = "2026-11-21T12:00:00.000Z"
const timeoutMs = () => Number(process.env.TEST_PROBE_TIMEOUT_MS) || 10_000

/** One call to the target deployment; its outcome becomes a step (never a failure of the job's request). */
const importStep = (name: string, call: { origin: string; credential: string; method: string; path: string; body: unknown }) =>
  Effect.promise(async (): Promise<MigrationStep> => {
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (isApiKey(call.credential)) headers["x-api-key"] = call.credential
    else headers.authorization = `Bearer ${call.credential}`
    try {
      const response = await fetch(call.origin + call.path, {
        method: call.method,
        headers,
        body: JSON.stringify(call.body),
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs())
      })
      const text = await response.text()
      let message = ""
      try {
        message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? ""
      } catch {
        message = text.slice(0, 200)
      }
      // Already a member or already invited there: nothing left to carry over.
      const ok = response.ok || response.status === 409
      return {
        name,
        ok,
        status: response.status,
        detail: response.ok ? "imported" : response.status === 409 ? `already there: ${message}` : message
      }
    } catch (cause) {
      return { name, ok: false, status: null, detail: `target unreachable: ${(cause as Error).message}` }
    }
  })

export const workspaceMigrationOperations = [
  operation({
    service: "hub",
    tag: "Workspace Migration Resource",
    operationId: "migrateHubWorkspace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/migrations",
    summary: "Move the workspace's hub data to a workspace of another Atrium deployment (owner): export here, import there",
    description:
      "Exports settings (integration target, custom prompt), members with their roles and pending invitations, and imports them into `targetWorkspaceId` at `targetOrigin` with `targetCredential` (a JWT or an API key of an admin there): settings are written, members and invitees are invited with their roles (accounts do not cross deployments). Runs as one job; its steps say what happened to each item. A refused target answers 400 naming `body.targetOrigin`.",
    auth: "jwt",
    scopes: [],
    params: WorkspaceParams,
    body: Schema.Struct({
      targetOrigin: Schema.String.check(
        Schema.isMaxLength(500),
        Schema.isPattern(/^https?:\/\/[^/\s]+$/, { expected: "an origin like https://eu.atrium.example" })
      ),
      targetWorkspaceId: Id,
      targetCredential: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(4000))
    }),
    responses: { 201: { description: "The job, finished", schema: WorkspaceMigration }, 403: { description: "Not the owner" } },
    examples: [
      {
        name: "to-eu",
        request: {
          params: { workspaceId: exampleWorkspace.id },
          body: {
            targetOrigin: "https://eu.atrium.example",
            targetWorkspaceId: "4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e",
            targetCredential: "atr_live_Eu12ab…"
          }
        },
        response: {
          status: 201,
          body: {
            id: "1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b",
            workspaceId: exampleWorkspace.id,
            targetOrigin: "https://eu.atrium.example",
            targetWorkspaceId: "4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e",
            status: "completed",
            steps: [
              { name: "settings", ok: true, status: 200, detail: "imported" },
              { name: "member bob@example.com (member)", ok: true, status: 201, detail: "imported" }
            ],
            error: null,
            createdBy: exampleWorkspace.ownerId,
            createdAt: at,
            finishedAt: at
          }
        }
      }
    ],
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "owner")
        const user = yield* userOf(context)
        const refusal = yield* Effect.promise(() => checkOutboundUrl(body.targetOrigin))
        if (refusal !== undefined)
          return yield* reject("invalid", `targetOrigin ${refusal.reason}`, [{ path: "body.targetOrigin", message: refusal.reason }])
        const actors = yield* ActorSystem
        // Export: everything is read before anything is sent.
        const ws = yield* actors.ask(Workspace, params.workspaceId, "view", { by: user.userId })
        const users = yield* Effect.orDie(usersByIds(ws.members.map((m) => m.userId)))
        const invitations = yield* actors.ask(HubInvitations, params.workspaceId, "list", { status: "pending" })
        const jobId = yield* startMigration({
          workspaceId: params.workspaceId,
          targetOrigin: body.targetOrigin,
          targetWorkspaceId: body.targetWorkspaceId,
          createdBy: user.userId
        })
        const target = { origin: body.targetOrigin, credential: body.targetCredential }
        const base = `/hub/v1/workspaces/${body.targetWorkspaceId}`
        const settings = yield* importStep("settings", {
          ...target,
          method: "PATCH",
          path: `${base}/settings`,
          body: { preferredIntegrationTarget: ws.settings.preferredIntegrationTarget, customPrompt: ws.settings.customPrompt }
        })
        // The target refused the credential or the workspace: stop, nothing else would pass either.
        if (settings.status === 401 || settings.status === 403 || settings.status === 404 || settings.status === null)
          return yield* finishMigration(jobId, [settings], `The target refused the import: ${settings.detail}`)
        const people = [
          ...ws.members
            .filter((member) => member.role !== "owner" && member.userId !== user.userId)
            .map((member) => ({ kind: "member", email: users.get(member.userId)?.email ?? "", role: member.role })),
          ...invitations.map((invitation) => ({ kind: "invitation", email: invitation.email, role: invitation.role }))
        ].filter((person) => person.email !== "")
        const invited = yield* Effect.forEach(people, (person) =>
          importStep(`${person.kind} ${person.email} (${person.role})`, {
            ...target,
            method: "POST",
            path: `${base}/invitations`,
            body: { email: person.email, role: person.role }
          })
        )
        return yield* finishMigration(jobId, [settings, ...invited], null)
      })
  })
]
