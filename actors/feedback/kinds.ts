/** The feedback service's actor kinds. */
import type { ActorKind } from "../../runtime/Actor.ts"
import { Board } from "./Board.ts"

export const feedbackActorKinds: ReadonlyArray<ActorKind> = [Board]
