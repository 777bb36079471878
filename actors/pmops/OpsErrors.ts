/**
 * The domain errors of pm's operations actors (automations, bulk jobs, forms,
 * webhooks), declared by their messages and answered from one table
 * (`facade/HttpError.ts`). Messages are the replies' exact wording.
 */
import { Schema } from "effect"

export class AutomationRuleNotFound extends Schema.TaggedError<AutomationRuleNotFound>()("AutomationRuleNotFound", {}) {
  override get message() {
    return "No such automation rule"
  }
}

export class BulkJobNotFound extends Schema.TaggedError<BulkJobNotFound>()("BulkJobNotFound", {}) {
  override get message() {
    return "No such job"
  }
}

/** Retrying a job that is queued or running. */
export class JobStillRunning extends Schema.TaggedError<JobStillRunning>()("JobStillRunning", {}) {
  override get message() {
    return "The job is still running"
  }
}

export class FormNotFound extends Schema.TaggedError<FormNotFound>()("FormNotFound", {}) {
  override get message() {
    return "No such form"
  }
}

export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>()("WebhookNotFound", {}) {
  override get message() {
    return "No such webhook"
  }
}

export class DeliveryNotFound extends Schema.TaggedError<DeliveryNotFound>()("DeliveryNotFound", {}) {
  override get message() {
    return "No such delivery"
  }
}

export class DeadLetterNotFound extends Schema.TaggedError<DeadLetterNotFound>()("DeadLetterNotFound", {}) {
  override get message() {
    return "No such dead letter"
  }
}

/** Testing a webhook that is not active (it is `status`). */
export class WebhookNotActive extends Schema.TaggedError<WebhookNotActive>()("WebhookNotActive", { status: Schema.String }) {
  override get message() {
    return `The webhook is ${this.status}; activate it first`
  }
}

/** Redelivering a delivery that is still being attempted. */
export class DeliveryPending extends Schema.TaggedError<DeliveryPending>()("DeliveryPending", {}) {
  override get message() {
    return "The delivery is still being attempted"
  }
}

export type OpsError =
  | AutomationRuleNotFound
  | BulkJobNotFound
  | JobStillRunning
  | FormNotFound
  | WebhookNotFound
  | DeliveryNotFound
  | DeadLetterNotFound
  | WebhookNotActive
  | DeliveryPending
