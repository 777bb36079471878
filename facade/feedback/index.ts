/** Every feedback operation (the feedback-board service, base path /feedback). */
import type { AnyOperation } from "../Operation.ts"
import { attachmentOperations } from "./Attachments.ts"
import { boardDiscoveryOperations } from "./BoardDiscovery.ts"
import { boardInsightOperations } from "./BoardInsights.ts"
import { boardLiveOperations } from "./BoardLive.ts"
import { boardOperations } from "./Boards.ts"
import { boardsLiteOperations } from "./BoardsLite.ts"
import { boardTeamOperations } from "./BoardTeam.ts"
import { commentOperations } from "./Comments.ts"
import { feedbackDeskOperations } from "./desk.ts"
import { featureRequestFollowerOperations } from "./FeatureRequestFollowers.ts"
import { featureRequestOperations } from "./FeatureRequests.ts"
import { featureRequestWorkflowOperations } from "./FeatureRequestWorkflow.ts"
import { notificationPreferenceOperations } from "./NotificationPreferences.ts"
import { linkedWorkOperations } from "./LinkedWork.ts"
import { linkedWorkLiteOperations } from "./LinkedWorkLite.ts"
import { optionOperations } from "./Options.ts"
import { votingOperations } from "./Voting.ts"

export const feedbackOperations: ReadonlyArray<AnyOperation> = [
  ...boardOperations,
  ...boardTeamOperations,
  ...boardDiscoveryOperations,
  ...boardInsightOperations,
  ...boardLiveOperations,
  ...featureRequestOperations,
  ...featureRequestWorkflowOperations,
  ...featureRequestFollowerOperations,
  ...votingOperations,
  ...commentOperations,
  ...optionOperations,
  ...notificationPreferenceOperations,
  ...attachmentOperations,
  ...boardsLiteOperations,
  ...feedbackDeskOperations,
  ...linkedWorkOperations,
  ...linkedWorkLiteOperations
]
