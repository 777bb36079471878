/** The pm live-update streams extension: the ChangeLog and the WebSocket / Socket.IO endpoints. */
import { Layer } from "effect"
import type { Extension } from "../facade/Extension.ts"

export const streamsExtension: Extension = {
  name: "streams",
  layer: () => Layer.empty
}
