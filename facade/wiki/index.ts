/** Every wiki operation: editing (spaces, pages, versions, comments, attachments, permissions) and discovery (search, export, public wiki, dashboards, settings). */
import type { AnyOperation } from "../Operation.ts"
import { wikiDiscoveryOperations } from "./discovery.ts"
import { wikiEditingOperations } from "./editing.ts"

export const wikiOperations: ReadonlyArray<AnyOperation> = [...wikiEditingOperations, ...wikiDiscoveryOperations]
