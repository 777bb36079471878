/** Lens's actor kinds: a thread per thread id; the index, the account (credits) and the experiments per workspace; a bot per chat connection. */
import type { ActorKind } from "../../runtime/Actor.ts"
import { LensBot } from "./Bots.ts"
import { LensAccount } from "./LensAccount.ts"
import { LensExperiments } from "./LensExperiments.ts"
import { LensIndex } from "./LensIndex.ts"
import { LensThread } from "./LensThread.ts"

export const lensActorKinds: ReadonlyArray<ActorKind> = [LensThread, LensIndex, LensAccount, LensExperiments, LensBot]
