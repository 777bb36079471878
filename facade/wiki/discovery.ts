/** Wiki operations of search, export/import, the public wiki, dashboards, favorites and settings (one file per tag beside this one). */
import type { AnyOperation } from "../Operation.ts"
import { publicWikiOperations } from "./PublicWiki.ts"
import { publicWikiResolveOperations } from "./PublicWikiResolve.ts"
import { publicWikiSettingsOperations } from "./PublicWikiSettings.ts"
import { publicWikiSitemapOperations } from "./PublicWikiSitemap.ts"
import { publicWikiSpaceOperations } from "./PublicWikiSpace.ts"
import { usersOperations } from "./Users.ts"
import { wikiDashboardOperations } from "./WikiDashboard.ts"
import { wikiExportOperations } from "./WikiExport.ts"
import { wikiFavoritesOperations } from "./WikiFavorites.ts"
import { wikiHomeOperations } from "./WikiHome.ts"
import { wikiImportOperations } from "./WikiImport.ts"
import { wikiLiveEventsOperations } from "./WikiLiveEvents.ts"
import { wikiRealtimeCollaborationOperations } from "./WikiRealtimeCollaboration.ts"
import { wikiSearchOperations } from "./WikiSearch.ts"
import { wikiSettingsOperations } from "./WikiSettings.ts"
import { wikiUserSettingsOperations } from "./WikiUserSettings.ts"

export const wikiDiscoveryOperations: ReadonlyArray<AnyOperation> = [
  ...wikiSearchOperations,
  ...publicWikiOperations,
  ...publicWikiSpaceOperations,
  ...publicWikiSitemapOperations,
  ...publicWikiResolveOperations,
  ...publicWikiSettingsOperations,
  ...wikiExportOperations,
  ...wikiImportOperations,
  ...wikiFavoritesOperations,
  ...wikiHomeOperations,
  ...wikiSettingsOperations,
  ...wikiUserSettingsOperations,
  ...usersOperations,
  ...wikiRealtimeCollaborationOperations,
  ...wikiLiveEventsOperations,
  ...wikiDashboardOperations
]
