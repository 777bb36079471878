// Validates OpenAPI documents with Redocly's structural rules (the "minimal" ruleset: the document's shape
// against the OpenAPI 3.x types, $refs resolving, media-type keys, …).
// Usage: node validate.cjs <file>...   exits 1 and prints the problems when one is not a valid document.
const { createConfig, lint } = require("@redocly/openapi-core")

const main = async () => {
  const config = await createConfig({ extends: ["minimal"] })
  let failed = false
  for (const file of process.argv.slice(2)) {
    const problems = (await lint({ ref: file, config })).filter((p) => p.severity === "error")
    for (const p of problems) {
      failed = true
      console.log(`${file}: ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(", ")}`)
    }
  }
  process.exit(failed ? 1 : 0)
}
main().catch((error) => {
  console.error(error)
  process.exit(2)
})
