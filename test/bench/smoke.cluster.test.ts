/** The bench's cluster and cluster-faults scenarios at their smallest level (test/support/benchSmoke.ts). */
import { describeSmoke } from "../support/benchSmoke.ts"

describeSmoke(2)
