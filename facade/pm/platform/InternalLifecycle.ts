/** What the internal workspace operations share: their declaration (tag, auth, note) and the lifecycle step with its audit. */
import { Effect, type Schema } from "effect"
import type { Contract, Responses } from "../../Operation.ts"
import { internalWorkspacesExamples } from "./InternalWorkspaces.examples.ts"
import { tagGroup } from "../../Operation.ts"
import { asService, audited, INTERNAL_NOTE } from "./Shared.ts"
import { existingWorkspace, inspectWorkspace } from "./WorkspaceInspection.ts"

export const base = "/v1/internal/workspaces"

/** An internal change on the workspace's behalf, then the workspace as it now is. */
export const lifecycle = <A, E, R>(
  context: Parameters<typeof asService>[0],
  workspaceId: string,
  action: string,
  change: (actor: string, ws: { ownerId: string; members: ReadonlyArray<{ userId: string }> }) => Effect.Effect<A, E, R>,
  data: Record<string, unknown> = {}
) =>
  Effect.gen(function* () {
    const caller = yield* asService(context)
    const ws = yield* existingWorkspace(workspaceId)
    yield* change(caller.actor, ws)
    yield* audited({ actor: caller.actor, action, targetType: "workspace", targetId: workspaceId, workspaceId, data })
    return yield* inspectWorkspace(workspaceId)
  })

const internalWorkspaces = tagGroup("pm", "Internal Workspace Resource")

export const declare = <
  P extends Schema.Top | undefined,
  Q extends Schema.Top | undefined,
  B extends Schema.Top | undefined,
  R,
  const Rs extends Responses
>(
  definition: Omit<Contract<P, Q, B, R, Rs>, "auth" | "scopes" | "description" | "operationId"> & {
    /** One of the tag's examples file: an operation without examples does not compile. */
    readonly operationId: keyof typeof internalWorkspacesExamples
    readonly description?: string
  }
) =>
  internalWorkspaces.operation<P, Q, B, R, Rs, string>({
    ...definition,
    examples: internalWorkspacesExamples[definition.operationId],
    auth: "public",
    scopes: [],
    description: `${INTERNAL_NOTE}${definition.description ? ` ${definition.description}` : ""}`
  })
