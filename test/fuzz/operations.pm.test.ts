/** The fuzzing of test/fuzz/support/Operations.ts over the project management operations. */
import { fuzzOperations } from "./support/Operations.ts"

fuzzOperations((op) => op.service === "pm")
