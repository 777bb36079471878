/** Project management's actor kinds. */
import type { ActorKind } from "../../runtime/Actor.ts"
import { planningActorKinds } from "./PlanningActors.ts"
import { PmOrganization, PmPersonal } from "./OrganizationActors.ts"
import { PmList, PmSpace, PmTask, PmWorkspace } from "./WorkActors.ts"
import { PmTeam } from "./Team.ts"
import { UserSettings } from "./UserSettings.ts"

export const pmActorKinds: ReadonlyArray<ActorKind> = [
  PmWorkspace,
  PmSpace,
  PmList,
  PmTask,
  PmTeam,
  UserSettings,
  ...planningActorKinds,
  PmOrganization,
  PmPersonal
]
