/** pm whiteboard operations (one file per tag beside this one). */
import type { AnyOperation } from "../../Operation.ts"
import { whiteboardCollaborationOperations } from "./WhiteboardCollaboration.ts"
import { whiteboardCommentsOperations } from "./WhiteboardComments.ts"
import { whiteboardTemplatesOperations } from "./WhiteboardTemplates.ts"

export const pmWhiteboardOperations: ReadonlyArray<AnyOperation> = [
  ...whiteboardCollaborationOperations,
  ...whiteboardCommentsOperations,
  ...whiteboardTemplatesOperations
]
