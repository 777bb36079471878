/** The bench's rest scenario at its smallest level (test/support/benchSmoke.ts). */
import { describeSmoke } from "../support/benchSmoke.ts"

describeSmoke(0)
