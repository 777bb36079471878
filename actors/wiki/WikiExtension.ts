/** The wiki's services beside its operations (document access rules for the collab endpoint, indexing hooks). */
import { Layer } from "effect"
import type { Extension } from "../../facade/Extension.ts"

export const wikiExtension: Extension = {
  name: "wiki",
  layer: () => Layer.empty
}
