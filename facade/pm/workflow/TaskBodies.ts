/**
 * A task body from somewhere other than a request (form answers, an imported
 * row) checked exactly as the create-task operation checks its body, into the
 * input the list actor takes; problems named under `prefix`, with `rename`
 * mapping a body key to the caller's own key (a form's answer key).
 */
import { Effect, Exit, Schema, SchemaIssue } from "effect"
import { reject, type RejectionDetail } from "../../../runtime/Rejection.ts"
import { NewTaskBody, newTaskInput } from "../tasks/shared.ts"

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()
const decodeTask = Schema.decodeUnknownExit(NewTaskBody as Schema.Codec<typeof NewTaskBody.Type, unknown>, {
  onExcessProperty: "error",
  errors: "all"
})

export const invalid = (details: ReadonlyArray<RejectionDetail>) =>
  Effect.fail(reject("invalid", `Invalid ${details[0]!.path}: ${details[0]!.message}`, details))

export const taskInputOf = (
  workspaceId: string,
  body: Readonly<Record<string, unknown>>,
  prefix: string,
  rename: (path: ReadonlyArray<string>) => string = (path) => path.join(".")
) =>
  Effect.gen(function* () {
    const decoded = decodeTask(body)
    if (Exit.isFailure(decoded)) {
      const error = Exit.findErrorOption(decoded)
      const issues = error._tag === "Some" ? formatIssues(error.value.issue).issues : []
      return yield* invalid(
        issues.map((issue) => ({
          path: `${prefix}.${rename((issue.path ?? []).map((k) => String(typeof k === "object" ? k.key : k)))}`,
          message: issue.message
        }))
      )
    }
    return yield* newTaskInput(workspaceId, decoded.value, prefix)
  })
