/** The bench's stream-fanout, hub-processing and lens-eval scenarios at their smallest level (test/support/benchSmoke.ts). */
import { describeSmoke } from "../support/benchSmoke.ts"

describeSmoke(3)
