/**
 * The hub's account-side tags of issue 15 (part C): sessions and mail, workspace
 * invitations, demo workspaces, connection tests, waitlist, product feedback,
 * workspace migration and the internal key check.
 */
import type { AnyOperation } from "../../Operation.ts"
import { authResourceOperations } from "./AuthResource.ts"
import { demoResourceOperations } from "./DemoResource.ts"
import { demoUserResourceOperations } from "./DemoUserResource.ts"
import { emailResourceOperations } from "./EmailResource.ts"
import { platformResourceOperations } from "./PlatformResources.ts"
import { testResourceOperations } from "./TestResource.ts"
import { workspaceInvitationOperations } from "./WorkspaceInvitations.ts"
import { workspaceMigrationOperations } from "./WorkspaceMigration.ts"

export const hubAccountOperations: ReadonlyArray<AnyOperation> = [
  ...authResourceOperations,
  ...emailResourceOperations,
  ...workspaceInvitationOperations,
  ...demoResourceOperations,
  ...demoUserResourceOperations,
  ...testResourceOperations,
  ...platformResourceOperations,
  ...workspaceMigrationOperations
]
