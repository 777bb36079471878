/** The hub's meeting operations: recordings, calls, transcripts, media, action items and integrations (45). */
import { callActionItemsOperations } from "../CallActionItems.ts"
import { callsOperations } from "../Calls.ts"
import { changedTasksOperations } from "../ChangedTasks.ts"
import { integrationsOperations } from "../Integrations.ts"
import { recordingsOperations } from "../Recordings.ts"
import { taskActionOperations } from "../TaskActions.ts"
import { taskResourceOperations } from "../TaskResource.ts"
import { transcriptionOperations } from "../Transcription.ts"
import { videoResourceOperations } from "../VideoResource.ts"
import { HubCall } from "../../../actors/hub/CallActor.ts"

export const hubCallOperations = [
  ...recordingsOperations,
  ...callsOperations,
  ...callActionItemsOperations,
  ...transcriptionOperations,
  ...videoResourceOperations,
  ...taskActionOperations,
  ...changedTasksOperations,
  ...taskResourceOperations,
  ...integrationsOperations
]

export const hubCallActorKinds = [HubCall]
