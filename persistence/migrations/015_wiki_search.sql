-- Wiki full-text search. The 'simple' configuration (lower-casing, no stemming,
-- no stop words) is deliberate: a workspace's pages are written in any language
-- (often several), and language-specific stemmers mangle names, code and
-- identifiers; prefix matching at query time (`term:*`) covers most of what
-- stemming would (deploy → deployment). 'simple' exists on PostgreSQL and PGlite.
-- Titles weigh A, body text B, so title hits rank first. Only the first 250,000
-- characters of a body are indexed: a tsvector is capped at 1 MB, and a page
-- past that must still save.
ALTER TABLE wiki_pages ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('simple', left(coalesce(title, ''), 1000)), 'A') ||
  setweight(to_tsvector('simple', left(coalesce(content_text, ''), 250000)), 'B')
) STORED;
CREATE INDEX wiki_pages_search ON wiki_pages USING gin (search_vector);
