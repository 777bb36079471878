/** Lens's actor kinds: a thread per thread id, an account (credits) and experiments per workspace. */
import type { ActorKind } from "../../runtime/Actor.ts"
import { LensAccount } from "./LensAccount.ts"
import { LensExperiments } from "./LensExperiments.ts"
import { LensThread } from "./LensThread.ts"

export const lensActorKinds: ReadonlyArray<ActorKind> = [LensThread, LensAccount, LensExperiments]
