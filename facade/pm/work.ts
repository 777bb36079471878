/** pm operations of the work hierarchy and tasks, and their Lite variants (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"

export const pmWorkOperations: ReadonlyArray<AnyOperation> = []
