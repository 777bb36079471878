/** Every Lens operation (issue 14): chat, streaming, threads, feedback, experiments, proposals, credits and usage. */
import type { AnyOperation } from "../Operation.ts"
import { aiFlowOperations } from "./AiFlows.ts"
import { botOperations } from "./Bots.ts"
import { chatOperations } from "./Chat.ts"
import { creditOperations } from "./Credits.ts"
import { experimentOperations } from "./Experiments.ts"
import { lensTaskOperations } from "./LensTask.ts"
import { microserviceOperations } from "./Microservices.ts"
import { proposalOperations } from "./Proposals.ts"
import { tokenUsageOperations } from "./TokenUsage.ts"

export const lensOperations: ReadonlyArray<AnyOperation> = [
  ...chatOperations,
  ...proposalOperations,
  ...creditOperations,
  ...tokenUsageOperations,
  ...experimentOperations,
  ...microserviceOperations,
  ...aiFlowOperations,
  ...lensTaskOperations,
  ...botOperations
]
