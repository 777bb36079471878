/** Every feedback operation (the feedback-board service, base path /feedback). */
import type { AnyOperation } from "../Operation.ts"
import { boardOperations } from "./Boards.ts"
import { feedbackDeskOperations } from "./desk.ts"
import { featureRequestOperations } from "./FeatureRequests.ts"

export const feedbackOperations: ReadonlyArray<AnyOperation> = [...boardOperations, ...featureRequestOperations, ...feedbackDeskOperations]
