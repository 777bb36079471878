/** Every bench scenario no other smoke file runs, a new one included, at its smallest level (test/support/benchSmoke.ts). */
import { describeSmoke } from "../support/benchSmoke.ts"

describeSmoke(4)
