/**
 * The actors of planning, each the single writer of what it owns: a space's
 * sprints and sprint groups (so starting, completing and planning never race
 * within a space), a workspace's views and saved filters, a workspace's
 * dashboards, and one task's votes. Same machinery as the work hierarchy's
 * actors: every command runs inside `ChangeLog.transact`.
 */
import { dashboardCommands } from "./Dashboards.ts"
import { savedFilterCommands } from "./SavedFilters.ts"
import { sprintCommands } from "./SprintCommands.ts"
import { voteCommands } from "./TaskVotes.ts"
import { viewCommands } from "./ViewCommands.ts"
import { workActor } from "./WorkActor.ts"

export const PmSprints = workActor("pmSprints", sprintCommands)

export const PmViews = workActor("pmViews", { ...viewCommands, ...savedFilterCommands })

export const PmDashboards = workActor("pmDashboards", dashboardCommands)

export const PmTaskVotes = workActor("pmTaskVotes", voteCommands)

export const planningActorKinds = [PmSprints, PmViews, PmDashboards, PmTaskVotes]
