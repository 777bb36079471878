import { Effect } from "effect"
import { Sql } from "/work/wt/search/persistence/Sql.ts"
import { searchPages } from "/work/wt/search/actors/wiki/SearchIndex.ts"
import { parseSearchQuery } from "/work/wt/search/actors/wiki/SearchQuery.ts"
const fake = { backend: "postgres", query: (text: string, params: any) => { console.log(JSON.stringify({ text, params })); return Effect.succeed([{ total: 0 }]) }, transaction: (b: any) => b, executeScript: () => Effect.void } as any
Effect.runPromise(searchPages({ _tag: "reader", reader: { workspaceId: "ws", userId: "u1", role: "member" } }, parseSearchQuery("golf")!, {}, { limit: 20, offset: 0 }).pipe(Effect.provideService(Sql, fake)))
