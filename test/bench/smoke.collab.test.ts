/** The bench's collab-* scenarios at their smallest level (test/support/benchSmoke.ts). */
import { describeSmoke } from "../support/benchSmoke.ts"

describeSmoke(1)
