import { atriumRegistry } from "./facade/operations.ts"
const want = new Set(process.argv.slice(2))
for (const op of (atriumRegistry as any).operations ?? []) {
  if (want.has(op.operationId)) {
    const ex = op.examples?.[0]
    console.log(op.method, op.path, op.operationId, op.auth, JSON.stringify(ex?.request ?? ex ?? {}).slice(0, 400))
    console.log("   ->", JSON.stringify(ex?.response ?? {}).slice(0, 600))
  }
}
