/**
 * The feedback desk's operations (bug reports, moderation, private
 * feedback, milestones and their articles, changelog, Lite variants, public
 * board, form and visitors' comments), registered beside the board operations in `index.ts`.
 */
import type { AnyOperation } from "../Operation.ts"
import { bugCommentOperations } from "./BugComments.ts"
import { bugReportOperations } from "./BugReports.ts"
import { bugReportsLiteOperations } from "./BugReportsLite.ts"
import { bugReportsLiteTriageOperations } from "./BugReportsLiteTriage.ts"
import { changelogEntryOperations } from "./ChangelogEntries.ts"
import { featureRequestsLiteOperations } from "./FeatureRequestsLite.ts"
import { featureRequestsLiteActionOperations } from "./FeatureRequestsLiteActions.ts"
import { milestoneArticleOperations } from "./MilestoneArticles.ts"
import { milestoneOperations } from "./Milestones.ts"
import { moderationOperations } from "./Moderation.ts"
import { privateFeedbackOperations } from "./PrivateFeedback.ts"
import { publicBoardOperations } from "./PublicBoard.ts"
import { publicBugReportOperations } from "./PublicBugReports.ts"
import { publicCommentOperations } from "./PublicComments.ts"
import { publicFormOperations } from "./PublicForm.ts"
import { publicReleaseOperations } from "./PublicReleases.ts"
import { publicRequestOperations } from "./PublicRequests.ts"

export const feedbackDeskOperations: ReadonlyArray<AnyOperation> = [
  ...bugReportOperations,
  ...bugCommentOperations,
  ...milestoneOperations,
  ...milestoneArticleOperations,
  ...changelogEntryOperations,
  ...moderationOperations,
  ...privateFeedbackOperations,
  ...publicBoardOperations,
  ...publicRequestOperations,
  ...publicReleaseOperations,
  ...publicBugReportOperations,
  ...publicFormOperations,
  ...publicCommentOperations,
  ...featureRequestsLiteOperations,
  ...featureRequestsLiteActionOperations,
  ...bugReportsLiteOperations,
  ...bugReportsLiteTriageOperations
]
