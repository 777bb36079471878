/** The feedback service's actor kinds. */
import type { ActorKind } from "../../runtime/Actor.ts"
import { Board } from "./Board.ts"
import { FeedbackDesk } from "./FeedbackDesk.ts"

export const feedbackActorKinds: ReadonlyArray<ActorKind> = [Board, FeedbackDesk]
