/**
 * hub tag "Workspace Migration Resource" (1): move a workspace's hub data to
 * another Atrium deployment (another region or database) as a background
 * job: the request queues it and answers 202 with the job; a runner exports
 * the workspace and imports each item through the target's own public
 * operations (actors/hub/migration/). The tag has no read operation, so the
 * job's progress is read by posting the same migration again (while it runs,
 * that answers the job instead of starting another), and its outcome is
 * mailed to the owner (the hub's mail list, kind `workspace_migration`).
 */
import { Effect, Schema } from "effect"
import { queueMigration, unfinishedMigration, WorkspaceMigration } from "../../../actors/hub/WorkspaceMigrations.ts"
import { Id } from "../../../actors/Fields.ts"
import { checkOutboundUrl } from "../../../actors/webhooks/OutboundAddress.ts"
import { reject } from "../../../runtime/Rejection.ts"
import { userOf, workspaceRole } from "../../Access.ts"
import { tagGroup } from "../../Operation.ts"
import { WorkspaceParams } from "../../shared/WorkspaceAccess.ts"
import { workspaceMigrationExamples } from "./WorkspaceMigration.examples.ts"

const { operation } = tagGroup("hub", "Workspace Migration Resource", workspaceMigrationExamples)

export const workspaceMigrationOperations = [
  operation({
    operationId: "migrateHubWorkspace",
    method: "POST",
    path: "/v1/workspaces/{workspaceId}/migrations",
    summary: "Move the workspace's hub data to a workspace of another Atrium deployment (owner): a background export+import job",
    description:
      "Queues a job that exports the workspace's hub data and imports it into `targetWorkspaceId` at `targetOrigin` with `targetCredential` (a JWT or an API key of an admin there), through the target's own operations: settings; members and pending invitees (invited with their roles: accounts do not cross deployments); recordings with their transcript, attendees, media and your own notes and prompt (summaries are regenerated there); ingested chat conversations; workflows. Connections and broker tenants are listed but not carried (their credentials stay here). Answers 202 with the job; its `steps` say what happened to each item and `progress` how far it got. Posting the same migration again while the job is queued or running answers that job (its progress) instead of starting another. A job a restart interrupted resumes after its last finished item. The outcome is also mailed to you (mail kind `workspace_migration`). A refused target answers 400 naming `body.targetOrigin`.",
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
    responses: {
      202: { description: "The job, queued (or the unfinished one to the same target, with its progress)", schema: WorkspaceMigration },
      403: { description: "Not the owner" }
    },
    handler: ({ params, body }, context) =>
      Effect.gen(function* () {
        yield* workspaceRole(context, params.workspaceId, "owner")
        const user = yield* userOf(context)
        const refusal = yield* Effect.promise(() => checkOutboundUrl(body.targetOrigin))
        if (refusal !== undefined)
          return yield* reject("invalid", `targetOrigin ${refusal.reason}`, [{ path: "body.targetOrigin", message: refusal.reason }])
        const running = yield* unfinishedMigration(params.workspaceId, body.targetOrigin, body.targetWorkspaceId)
        if (running !== undefined) return running
        return yield* queueMigration({ workspaceId: params.workspaceId, ...body, createdBy: user.userId })
      })
  })
]
