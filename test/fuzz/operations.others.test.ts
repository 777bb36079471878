/** The fuzzing of test/fuzz/support/Operations.ts over every operation outside project management. */
import { fuzzOperations } from "./support/Operations.ts"

fuzzOperations((op) => op.service !== "pm")
