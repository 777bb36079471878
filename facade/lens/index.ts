/** Every Lens operation (issue 14): chat, streaming, threads, feedback, experiments, proposals, credits and usage. */
import type { AnyOperation } from "../Operation.ts"
import { chatOperations } from "./Chat.ts"

export const lensOperations: ReadonlyArray<AnyOperation> = [...chatOperations]
