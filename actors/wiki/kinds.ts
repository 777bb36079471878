/** The wiki's actor kinds. */
import type { ActorKind } from "../../runtime/Actor.ts"
import { WikiPage } from "./WikiPage.ts"
import { WikiSpace } from "./WikiSpace.ts"

export const wikiActorKinds: ReadonlyArray<ActorKind> = [WikiSpace, WikiPage]
