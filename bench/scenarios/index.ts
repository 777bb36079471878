/** Every scenario, in the order a full run takes them. A new scenario is one file and one line here. */
import type { Scenario } from "../Scenario.ts"
import { actors } from "./actors.ts"
import { automations } from "./automations.ts"
import { cluster } from "./cluster.ts"
import { clusterFaults } from "./cluster-faults.ts"
import { fencingCost } from "./fencing-cost.ts"
import { collabColdOpen, collabDurable, collabFanout, collabJoinStorm, collabManyDocs, collabSmallGroup } from "./collab.ts"
import { feedbackVotes } from "./feedback-votes.ts"
import { streamFanout } from "./stream-fanout.ts"
import { webhooks } from "./webhooks.ts"
import { notificationFanout } from "./notification-fanout.ts"
import { rest } from "./rest.ts"
import { readModelMemory } from "./read-model-memory.ts"
import { hubProcessing } from "./hub-processing.ts"
import { transcription } from "./transcription.ts"
import { idle } from "./idle.ts"
import { lensEval } from "./lens-eval.ts"
import { web } from "./web.ts"

export const scenarios: ReadonlyArray<Scenario> = [
  idle,
  actors,
  rest,
  readModelMemory,
  collabFanout,
  collabManyDocs,
  collabDurable,
  collabColdOpen,
  collabJoinStorm,
  collabSmallGroup,
  streamFanout,
  hubProcessing,
  transcription,
  lensEval,
  cluster,
  clusterFaults,
  fencingCost,
  feedbackVotes,
  webhooks,
  notificationFanout,
  automations,
  web
]
