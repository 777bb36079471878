-- Indexes that make text search cost O(result), not O(workspace).
--
-- pm task search (`q`: a substring of the name or description, or an exact
-- short id, all case-insensitive) keeps its LIKE '%…%' semantics: trigram GIN
-- indexes on the lower-cased columns answer those patterns (a pattern of
-- three or more characters is looked up; shorter ones still match correctly,
-- the index just narrows less). pg_trgm is a trusted extension on
-- PostgreSQL 13+ and bundled with PGlite (registered in PgliteSql.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX pm_tasks_name_trgm ON pm_tasks USING gin (lower(name) gin_trgm_ops);
CREATE INDEX pm_tasks_description_trgm ON pm_tasks USING gin (lower(description) gin_trgm_ops);
CREATE INDEX pm_tasks_short_id_lower ON pm_tasks (workspace_id, lower(short_id));

-- Wiki visibility (actors/wiki/VisiblePages.ts): the pages that hide a subtree
-- (archived or view-restricted) are few, so a partial index finds them without
-- reading the workspace, and the walks over the tree (down from them, or up
-- from a search hit) follow parent_id.
CREATE INDEX wiki_pages_parent ON wiki_pages (parent_id);
CREATE INDEX wiki_pages_hiding ON wiki_pages (workspace_id) WHERE archived_at IS NOT NULL OR restriction = 'view';
