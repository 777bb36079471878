/**
 * The four actors of the work hierarchy, each the single writer of what it
 * owns: the workspace (its spaces, moves across spaces, relationships,
 * task templates), the space (itself, its folders and their properties, its
 * tags, creating lists), the list (itself, its properties, tasks entering it)
 * and the task (everything about one task).
 */
import { propertyCommands } from "./Properties.ts"
import { relationshipCommands } from "./Relationships.ts"
import { tagCommands } from "./SpaceTags.ts"
import { listStructureCommands, spaceStructureCommands, workspaceStructureCommands } from "./StructureCommands.ts"
import { listTaskCommands, taskCommands } from "./TaskCommands.ts"
import { discussionCommands } from "./TaskDiscussion.ts"
import { templateCommands } from "./TaskTemplates.ts"
import { workActor } from "./WorkActor.ts"

export const PmWorkspace = workActor("pmWorkspace", { ...workspaceStructureCommands, ...relationshipCommands, ...templateCommands })

export const PmSpace = workActor("pmSpace", { ...spaceStructureCommands, ...propertyCommands("space"), ...tagCommands })

export const PmList = workActor("pmList", { ...listStructureCommands, ...propertyCommands("list"), ...listTaskCommands })

export const PmTask = workActor("pmTask", { ...taskCommands, ...discussionCommands })
