/** Every documented operation of the four services, and the uncatalogued routes served beside them. */
import { Account } from "../actors/identity/Account.ts"
import { feedbackActorKinds } from "../actors/feedback/kinds.ts"
import { lensActorKinds } from "../actors/lens/kinds.ts"
import { pmActorKinds } from "../actors/pm/kinds.ts"
import { wikiDiscoveryActorKinds } from "../actors/wiki/discoveryKinds.ts"
import { wikiActorKinds } from "../actors/wiki/kinds.ts"
import { ApiKey } from "../actors/identity/ApiKey.ts"
import { Session } from "../actors/identity/Session.ts"
import { Workspace } from "../actors/identity/Workspace.ts"
import { makeCatalog } from "./catalog/Catalog.ts"
import { openApiRoutes } from "./catalog/OpenApi.ts"
import { apiKeyResourceOperations as hubApiKeys } from "./hub/ApiKeyResource.ts"
import { workspaceSettingsOperations } from "./hub/WorkspaceSettings.ts"
import { workspacesOperations as hubWorkspaces } from "./hub/Workspaces.ts"
import { hubCallActorKinds, hubCallOperations } from "./hub/calls/index.ts"
import { hubPeopleActorKinds, hubPeopleOperations } from "./hub/people/index.ts"
import { hubAccountOperations } from "./hub/accounts/index.ts"
import { hubIntegrationActorKinds, hubIntegrationOperations } from "./hub/connect/index.ts"
import { lensOperations } from "./lens/index.ts"
import { hubMeetingActorKinds, hubMeetingOperations } from "./hub/meetings/index.ts"
import type { AnyOperation } from "./Operation.ts"
import { apiKeyResourceOperations as pmApiKeys } from "./pm/ApiKeyResource.ts"
import { authenticationOperations } from "./pm/Authentication.ts"
import { pmLiveOperations } from "./pm/live.ts"
import { pmOrganizationOperations } from "./pm/organization.ts"
import { pmPlanningOperations } from "./pm/planning.ts"
import { pmWorkOperations } from "./pm/work.ts"
import { pmWorkflowOperations } from "./pm/workflow/index.ts"
import { pmOpsActorKinds as pmWorkflowActorKinds } from "../actors/pmops/kinds.ts"
import { workspacesOperations as pmWorkspaces } from "./pm/Workspaces.ts"
import { wikiOperations } from "./wiki/index.ts"
import { feedbackOperations } from "./feedback/index.ts"
import { makeRegistry, type Registry } from "./Registry.ts"
import { pmOpsActorKinds, pmOpsOperations } from "./pm/platform/index.ts"

/** The actor kinds every node hosts. */
export const actorKinds = [
  Account,
  Session,
  Workspace,
  ApiKey,
  ...wikiActorKinds,
  ...wikiDiscoveryActorKinds,
  ...pmActorKinds,
  ...pmOpsActorKinds,
  ...hubCallActorKinds,
  ...hubPeopleActorKinds,
  ...hubMeetingActorKinds,
  ...pmWorkflowActorKinds,
  ...feedbackActorKinds,
  ...hubIntegrationActorKinds,
  ...lensActorKinds
]

/** Any of the kinds: what their handlers need is what the actor system needs. */
export type ActorKinds = (typeof actorKinds)[number]

let registry: Registry | undefined
const current = () => registry!
const catalog = makeCatalog(current)

const documented: ReadonlyArray<AnyOperation> = [
  ...catalog.hubOperations,
  ...hubWorkspaces,
  ...workspaceSettingsOperations,
  ...hubApiKeys,
  ...hubCallOperations,
  ...hubPeopleOperations,
  ...hubAccountOperations,
  ...hubIntegrationOperations,
  ...lensOperations,
  ...hubMeetingOperations,
  ...authenticationOperations,
  ...pmWorkspaces,
  ...pmApiKeys,
  ...pmWorkOperations,
  ...pmLiveOperations,
  ...pmOrganizationOperations,
  ...pmPlanningOperations,
  ...wikiOperations,
  ...pmOpsOperations,
  ...pmWorkflowOperations,
  ...feedbackOperations
]

registry = makeRegistry(documented, [...catalog.pmRoutes, ...openApiRoutes(current)])

export const atriumRegistry: Registry = registry
