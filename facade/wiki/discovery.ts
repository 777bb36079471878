/** Wiki operations of search, export/import, the public wiki, dashboards, favorites and settings (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"

export const wikiDiscoveryOperations: ReadonlyArray<AnyOperation> = []
