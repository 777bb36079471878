/**
 * The workspace single sign-on actor's domain errors, declared by its
 * messages; the facade answers each with its status in one table
 * (`facade/HttpError.ts`). Messages and details are the replies' exact wording.
 */
import { Schema } from "effect"

export class SsoNotConfigured extends Schema.TaggedError<SsoNotConfigured>()("SsoNotConfigured", {}) {
  override get message() {
    return "Single sign-on is not configured for this workspace"
  }
}

export class SsoDomainListed extends Schema.TaggedError<SsoDomainListed>()("SsoDomainListed", {}) {
  override get message() {
    return "This domain is already listed"
  }
  get details() {
    return [{ path: "body.domain", message: "already listed" }] as const
  }
}

export class SsoDomainNotFound extends Schema.TaggedError<SsoDomainNotFound>()("SsoDomainNotFound", {}) {
  override get message() {
    return "No such domain"
  }
}

/** Enforcing sends every member of a domain through the provider: it needs one that works. */
export class SsoCannotEnforce extends Schema.TaggedError<SsoCannotEnforce>()("SsoCannotEnforce", {}) {
  override get message() {
    return "Enforcing needs SSO enabled and at least one domain"
  }
  get details() {
    return [{ path: "body.enforced", message: "enable SSO and add a domain first" }] as const
  }
}

export type SsoError = SsoNotConfigured | SsoDomainListed | SsoDomainNotFound | SsoCannotEnforce
