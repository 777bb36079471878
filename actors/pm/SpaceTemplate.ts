/**
 * A space's structure without ids — statuses, custom fields, folders and
 * lists — as exported from a space and imported into a new one (also the
 * unit of a workspace structure export).
 */
import { Schema } from "effect"
import { Name } from "../Fields.ts"
import { StatusInput } from "./Statuses.ts"
import { Color, FeaturesPatch, FieldType, TaskDefaults } from "./WorkRecords.ts"

const Description = Schema.String.check(Schema.isMaxLength(5000))
const Statuses = Schema.Array(StatusInput).check(Schema.isMaxLength(50))

export const FieldTemplate = Schema.Struct({
  name: Name(100),
  type: FieldType,
  description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000))),
  required: Schema.optionalKey(Schema.Boolean),
  config: Schema.optionalKey(
    Schema.Struct({
      options: Schema.optionalKey(
        Schema.Array(
          Schema.Struct({ id: Schema.optionalKey(Schema.String), name: Name(100), color: Schema.optionalKey(Schema.NullOr(Color)) })
        ).check(Schema.isMaxLength(200))
      ),
      currency: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/))),
      precision: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 6 }))),
      min: Schema.optionalKey(Schema.Finite),
      max: Schema.optionalKey(Schema.Finite)
    })
  )
})
export type FieldTemplate = typeof FieldTemplate.Type

const Fields = Schema.Array(FieldTemplate).check(Schema.isMaxLength(100))

export const ListTemplate = Schema.Struct({
  name: Name(),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  statuses: Schema.optionalKey(Statuses),
  customFields: Schema.optionalKey(Fields)
})
export type ListTemplate = typeof ListTemplate.Type

export const FolderTemplate = Schema.Struct({
  name: Name(),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  statuses: Schema.optionalKey(Statuses),
  customFields: Schema.optionalKey(Fields),
  lists: Schema.optionalKey(Schema.Array(ListTemplate).check(Schema.isMaxLength(200)))
})
export type FolderTemplate = typeof FolderTemplate.Type

export const SpaceTemplate = Schema.Struct({
  name: Name(),
  description: Schema.optionalKey(Description),
  color: Schema.optionalKey(Schema.NullOr(Color)),
  features: Schema.optionalKey(FeaturesPatch),
  taskDefaults: Schema.optionalKey(TaskDefaults),
  statuses: Schema.optionalKey(Statuses),
  customFields: Schema.optionalKey(Fields),
  folders: Schema.optionalKey(Schema.Array(FolderTemplate).check(Schema.isMaxLength(200))),
  lists: Schema.optionalKey(Schema.Array(ListTemplate).check(Schema.isMaxLength(200)))
}).annotate({ identifier: "SpaceTemplate", description: "A space's structure without ids: statuses, custom fields, folders and lists." })
export type SpaceTemplate = typeof SpaceTemplate.Type
