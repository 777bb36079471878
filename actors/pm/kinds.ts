/** Project management's actor kinds. */
import type { ActorKind } from "../../runtime/Actor.ts"

export const pmActorKinds: ReadonlyArray<ActorKind> = []
