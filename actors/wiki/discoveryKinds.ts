/**
 * The actor kinds of the wiki's discovery side (to be listed in `kinds.ts`):
 * per-user favorites/settings/recent searches, per-workspace wiki settings,
 * per-space public wiki.
 */
import type { ActorKind } from "../../runtime/Actor.ts"
import { PublicSite } from "./PublicSite.ts"
import { WikiMember } from "./WikiMember.ts"
import { WikiWorkspaceSettings } from "./WikiSettings.ts"

export const wikiDiscoveryActorKinds: ReadonlyArray<ActorKind> = [WikiMember, WikiWorkspaceSettings, PublicSite]
