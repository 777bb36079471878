-- A board's key names its requests and bug reports across the workspace
-- (MOBILE-12, MOBILE-B3), where the per-board FR-12 / B-3 can name several.
-- Existing boards take a key derived from their slug (letters and digits,
-- upper-cased, at most 10, not starting with a digit; "BOARD" when fewer
-- than 2 remain or the result is the reserved "FR"), numbered when two
-- boards of a workspace derive the same one (and, should a numbered key meet
-- one derived as such, the later board takes its first two letters and 8 hex
-- digits of its id). New boards get theirs when created, checked free first
-- as slugs are; the unique index holds against a race.
ALTER TABLE feedback_boards ADD COLUMN key text;

WITH derived AS (
  SELECT id, workspace_id, created_at,
         substr(ltrim(upper(regexp_replace(slug, '[^a-zA-Z0-9]', '', 'g')), '0123456789'), 1, 10) AS base
    FROM feedback_boards
), based AS (
  SELECT id, workspace_id, created_at,
         CASE WHEN length(base) < 2 OR base = 'FR' THEN 'BOARD' ELSE base END AS base
    FROM derived
), ranked AS (
  SELECT id, base, row_number() OVER (PARTITION BY workspace_id, base ORDER BY created_at, id) AS n FROM based
)
UPDATE feedback_boards b
   SET key = CASE WHEN r.n = 1 THEN r.base ELSE substr(r.base, 1, 10 - length(r.n::text)) || r.n::text END
  FROM ranked r
 WHERE r.id = b.id;

UPDATE feedback_boards b
   SET key = substr(b.key, 1, 2) || upper(substr(md5(b.id), 1, 8))
 WHERE EXISTS (
   SELECT 1 FROM feedback_boards o
    WHERE o.workspace_id = b.workspace_id AND o.key = b.key AND (o.created_at, o.id) < (b.created_at, b.id)
 );

ALTER TABLE feedback_boards ALTER COLUMN key SET NOT NULL;
CREATE UNIQUE INDEX feedback_boards_key ON feedback_boards (workspace_id, key);
