/** The wiki's actor kinds. */
import type { ActorKind } from "../../runtime/Actor.ts"

export const wikiActorKinds: ReadonlyArray<ActorKind> = []
