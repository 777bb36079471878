/**
 * Where alert rules read their metrics. Each source answers one metric over
 * a window; the request error rates come from this node's request counters.
 * The dead-letter queue depth and automation failures belong to the webhook
 * and automation modules (actors/pmops/AlertSources.ts); a metric nobody
 * registered reports `unavailable`.
 */
import type { Effect } from "effect"
import type { AlertMetric } from "./AlertRules.ts"

export interface AlertMetricSource {
  readonly metric: AlertMetric
  /** The metric's value over the last `windowMinutes` minutes. */
  readonly read: (windowMinutes: number) => Effect.Effect<number, unknown, any>
}

const sources = new Map<AlertMetric, AlertMetricSource>()

export const registerAlertSource = (source: AlertMetricSource): void => {
  sources.set(source.metric, source)
}

export const alertSourceOf = (metric: AlertMetric): AlertMetricSource | undefined => sources.get(metric)
