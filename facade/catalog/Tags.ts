/**
 * The tags of the four services, with the descriptions the service description
 * gives them. Operation counts are not here: the catalog computes them from the
 * registry (and test/catalog.coverage.test.ts compares them with the seed).
 */
export interface TagInfo {
  readonly tag: string
  readonly description: string
  /** A tag the seed's tables do not have (added by a later issue): test/catalog.coverage.test.ts leaves it out of the comparison. */
  readonly beyondSeed?: true
}

export const hubTags: ReadonlyArray<TagInfo> = [
  { tag: "Ai Flow Function Resource", description: "" },
  { tag: "Ai Method Resource", description: "" },
  { tag: "Auth Resource", description: "" },
  { tag: "Beta Waitlist Resource", description: "" },
  { tag: "Calendar Resource", description: "" },
  { tag: "Changed Task Resource", description: "" },
  { tag: "Task Action Resource", description: "" },
  { tag: "Demo Resource", description: "" },
  { tag: "Demo User Resource", description: "" },
  { tag: "Email Resource", description: "" },
  { tag: "Feedback Resource", description: "" },
  { tag: "Suite Call Resource", description: "" },
  { tag: "Lens", description: "Programmatic assistant chat; API-key scope lens:chat; exact path /lens/chat only" },
  { tag: "Lens Streaming Resource", description: "" },
  { tag: "Lens Experiment Resource", description: "" },
  { tag: "Lens Feedback Resource", description: "" },
  { tag: "Live Transcription Resource", description: "" },
  { tag: "Chat Ingestion Resource", description: "" },
  {
    tag: "Recordings",
    description:
      "Progress, summary regeneration, full reprocess, short-lived signed URLs for audio, video and preview frames; recording IDs are integers; scopes recordings:read, recordings:write"
  },
  { tag: "Reporting Resource", description: "" },
  { tag: "Settings Resource", description: "" },
  { tag: "Share Team Resource", description: "" },
  { tag: "Chatapp Resource", description: "" },
  { tag: "Chatapp O Auth Resource", description: "" },
  { tag: "Subscription Resource", description: "" },
  { tag: "Tag Resource", description: "" },
  { tag: "Task Resource", description: "" },
  { tag: "Workchat Call Resource", description: "" },
  { tag: "Test Resource", description: "" },
  { tag: "Token Usage Resource", description: "" },
  { tag: "Transcription Resource", description: "" },
  { tag: "User Resource", description: "" },
  { tag: "User Webhook", description: "Personal webhook fired when a meeting finishes processing" },
  {
    tag: "Calls",
    description:
      "Recorded calls and meetings; includes actions that send selected action items to an issue tracker, a task tool or a spreadsheet-database tool; call IDs are integers, call UUIDs are strings; scopes recordings:read, recordings:write"
  },
  { tag: "Reference Data", description: "The public catalog endpoints; unauthenticated" },
  { tag: "Current Api Key Resource", description: "" },
  { tag: "Payment Webhook Resource", description: "" },
  {
    tag: "Calendar",
    description:
      "Calendar events and custom prompts proxied to the calendar-events service; actor-scoped; scopes calendar:read, recordings:write"
  },
  {
    tag: "Calendar Sync",
    description: "Your calendars synced from Google, Microsoft 365 or an iCalendar address: their sync status, and a sync on demand",
    beyondSeed: true
  },
  { tag: "Hub Billing Resource", description: "" },
  { tag: "Integration Resource V 1", description: "" },
  { tag: "Internal Api Key Resource", description: "" },
  { tag: "Workspace Migration Resource", description: "" },
  { tag: "Lens Chat Resource", description: "" },
  { tag: "Tenant Workspace Connection Resource", description: "" },
  { tag: "Lens Credits Resource", description: "" },
  { tag: "Lens Microservice Resource", description: "" },
  { tag: "Lens Proposal Resource", description: "" },
  { tag: "Chatapp Bot Resource", description: "" },
  { tag: "Lens Task Resource", description: "" },
  { tag: "Workchat Resource", description: "" },
  { tag: "User View Resource", description: "" },
  { tag: "Workspaces", description: "Workspace listing, membership, ownership" },
  { tag: "Workspace Invitation Resource V 1", description: "" },
  { tag: "Workspace Invitation Public Resource V 1", description: "" },
  { tag: "Api Key Resource", description: "" },
  {
    tag: "Integrations",
    description:
      "Connected vendor systems; list connections with scope integrations:read; OAuth/connect flows need interactive consent and are JWT-only"
  },
  { tag: "Taskapp Resource V 1", description: "" },
  { tag: "Connector O Auth Resource", description: "" },
  { tag: "Docspace Resource V 1", description: "" },
  { tag: "Pm Resource V 1", description: "" },
  {
    tag: "Workspace Settings",
    description: "Preferred integration target and custom prompt; scopes workspace-settings:read, workspace-settings:write"
  },
  { tag: "Tablebase Resource V 2", description: "" },
  { tag: "Tracker Resource V 2", description: "" },
  { tag: "Video Resource", description: "" },
  { tag: "Connector Webhook Resource", description: "" },
  { tag: "Workflow Resource", description: "" },
  { tag: "Videomeet Bot Resource", description: "" },
  { tag: "Videomeet Call Resource", description: "" },
  {
    tag: "Notification Delivery",
    description: "How each kind of notification reaches you by e-mail (instant, daily, weekly, off) and one-click unsubscribe",
    beyondSeed: true
  }
]

export const pmTags: ReadonlyArray<TagInfo> = [
  { tag: "Authentication", description: "User registration, login, token management" },
  { tag: "Teams", description: "Team CRUD and member management" },
  { tag: "Reference Data", description: "Static reference data: access levels, status types, custom field types and similar" },
  { tag: "Activity Log", description: "Activity log queries and statistics" },
  { tag: "Admin - Activity", description: "" },
  { tag: "Admin - Alerts", description: "" },
  { tag: "Admin - Automations", description: "" },
  { tag: "Admin DLQ", description: "Dead-letter queue management" },
  { tag: "Admin - Stats", description: "" },
  { tag: "Admin - Users", description: "" },
  { tag: "Admin - Workspaces", description: "" },
  { tag: "Api Key Current Resource", description: "" },
  { tag: "Automation", description: "Automation rule CRUD" },
  { tag: "Bulk Jobs", description: "Asynchronous bulk-job status" },
  { tag: "Structure (Lite)", description: "Folder, list and custom-field creation" },
  { tag: "Dashboard", description: "Aggregation, distribution, voting results, relationship graphs" },
  { tag: "Dashboard (Lite)", description: "Aggregate reads for dashboards" },
  { tag: "Workspace Dashboard Resource", description: "" },
  { tag: "Folders", description: "Folder CRUD, hierarchy, property management" },
  { tag: "Form Views", description: "" },
  { tag: "Internal Api Key Resource", description: "" },
  { tag: "Internal Quota Resource", description: "" },
  { tag: "Internal Sso Resource", description: "" },
  { tag: "Internal User Resource", description: "" },
  { tag: "Internal Workspace Resource", description: "" },
  { tag: "Lists", description: "Task list CRUD, hierarchy, property management" },
  { tag: "Filters", description: "Saved filter management for lists" },
  { tag: "Notifications", description: "Retrieval and read status" },
  { tag: "OAuth Callbacks", description: "" },
  { tag: "Public Sharing", description: "Public read-only access to shared tasks" },
  { tag: "Sso Discovery Resource", description: "" },
  { tag: "Public Tenant Resource", description: "" },
  { tag: "Push Subscriptions", description: "" },
  { tag: "Relationships", description: "Task relationship CRUD and bulk operations" },
  { tag: "Resource Views", description: "View configuration, column ordering, grouping" },
  { tag: "Spaces", description: "Space CRUD, hierarchy, property management" },
  { tag: "Sprint Groups", description: "" },
  { tag: "Sprints", description: "" },
  { tag: "Payment Webhook Resource", description: "" },
  { tag: "Tags", description: "Tag CRUD for spaces" },
  { tag: "Tasks", description: "Task CRUD, comments, attachments, assignees, custom fields" },
  { tag: "Tasks (Lite)", description: "Name-based references" },
  { tag: "Search (Lite)", description: "Task search with name filters, e-mail-based assignee lookup, cursor pagination" },
  { tag: "Comments (Lite)", description: "Comment creation with e-mail-based mentions" },
  { tag: "Relationships (Lite)", description: "Task-relationship creation by type name" },
  { tag: "Users", description: "Profile, settings, avatar, password management" },
  { tag: "Version Resource", description: "" },
  { tag: "Views (Lite)", description: "View creation and manipulation across all scope levels" },
  { tag: "Whiteboard Collaboration", description: "Real-time collaboration operations" },
  { tag: "Whiteboard Comments", description: "Canvas comments pinned to whiteboard elements" },
  { tag: "WebSocket", description: "Ticket generation for real-time updates" },
  { tag: "Whiteboard Templates", description: "Workspace-scoped user-saved templates" },
  { tag: "Workspaces", description: "Workspace CRUD, hierarchy, settings, member management" },
  { tag: "Api Key Resource", description: "" },
  { tag: "Billing Resource", description: "" },
  { tag: "External Connections", description: "" },
  { tag: "Favorites", description: "" },
  { tag: "Import", description: "" },
  { tag: "Workspace Sso Resource", description: "" },
  { tag: "Webhook Resource", description: "" },
  { tag: "Context (Lite)", description: "Workspace discovery for AI agents" },
  { tag: "Task Feedback", description: "The feature requests and bug reports a task delivers, with vote counts", beyondSeed: true },
  { tag: "Task Feedback (Lite)", description: "A task's feature requests by short ids (T-42, FR-12)", beyondSeed: true }
]

export const wikiTags: ReadonlyArray<TagInfo> = [
  { tag: "Cover Images", description: "Cover image gallery" },
  { tag: "Wiki Attachments", description: "File attachments on pages" },
  {
    tag: "Wiki Real-time Collaboration",
    description: "Real-time collaborative editing over a WebSocket using a shared-document sync protocol"
  },
  { tag: "Wiki Comments", description: "Comments on pages" },
  { tag: "Wiki Live Events", description: "Follow a space's page tree and comments on the live-update stream", beyondSeed: true },
  { tag: "Wiki Page Permissions", description: "Per-page permissions" },
  { tag: "Wiki Page Versions", description: "Version history and restore" },
  { tag: "Public Wiki Resolve", description: "Resolve public URL paths to workspace and space key" },
  { tag: "Public Wiki Sitemap", description: "Public sitemap data; no authentication" },
  { tag: "Public Wiki Space", description: "Public space access; no authentication" },
  { tag: "Public Wiki", description: "Public access to shared pages; no authentication" },
  { tag: "Wiki Space Permissions", description: "Space permissions" },
  { tag: "Wiki User Settings", description: "Per-user wiki settings" },
  { tag: "Users", description: "User management" },
  { tag: "Wiki Dashboard", description: "Analytics and statistics" },
  { tag: "Wiki Favorites", description: "Per-user pinned pages" },
  { tag: "Wiki Home", description: "Home screen summary" },
  { tag: "Wiki Search", description: "Full-text search" },
  { tag: "Wiki Settings", description: "Workspace wiki settings" },
  { tag: "Wiki Spaces", description: "Spaces within a workspace" },
  { tag: "Wiki Spaces (Lite)", description: "Space discovery with key-based identifiers" },
  { tag: "Wiki Export", description: "Export of spaces to various formats" },
  { tag: "Wiki Import", description: "Import of pages from various file formats" },
  { tag: "Wiki Pages", description: "Pages within a space" },
  { tag: "Wiki Pages (Lite)", description: "Slug- or name-based references instead of UUIDs" },
  { tag: "Public Wiki Settings", description: "Public wiki configuration and analytics; requires space admin" }
]

export const feedbackTags: ReadonlyArray<TagInfo> = [
  { tag: "Attachment Resource", description: "" },
  { tag: "Board Resource", description: "" },
  { tag: "Boards (Lite)", description: "Board discovery with slug-based identifiers" },
  { tag: "Bug Status Level Resource", description: "" },
  { tag: "Category Resource", description: "" },
  { tag: "Milestone Resource", description: "" },
  { tag: "Notification Preference Resource", description: "" },
  { tag: "Product Area Resource", description: "" },
  { tag: "Feature Request Resource", description: "" },
  { tag: "Severity Level Resource", description: "" },
  { tag: "Status Resource", description: "" },
  { tag: "Bug Reports (Lite)", description: "Short-ID references" },
  { tag: "Feature Requests (Lite)", description: "Short-ID references and name-based filters" },
  { tag: "Bug Report Resource", description: "" },
  { tag: "Bug Comment Resource", description: "" },
  { tag: "Merge Resource", description: "" },
  { tag: "Changelog Entry Resource", description: "" },
  { tag: "Comment Resource", description: "" },
  {
    tag: "Milestone Articles",
    description: "Long-form changelog content attached to a milestone; same rich-text editor surface as wiki pages"
  },
  { tag: "Moderation Resource", description: "" },
  { tag: "Private Feedback Resource", description: "" },
  { tag: "Public Board Resource", description: "" },
  { tag: "Public Form Resource", description: "" },
  {
    tag: "Public Board Comments",
    description: "Visitors of a public board comment on its requests without an account (rate limited, honeypot-guarded)",
    beyondSeed: true
  },
  { tag: "Feature Request Detail Resource", description: "" },
  { tag: "Feature Request Comment Resource", description: "" },
  { tag: "Vote Resource", description: "" },
  {
    tag: "Linked Work",
    description: "Feature requests and bug reports linked to the pm tasks that deliver them; how work moves requests",
    beyondSeed: true
  },
  { tag: "Linked Work (Lite)", description: "A feature request's pm tasks by short ids (FR-12, T-42)", beyondSeed: true }
]
