-- A board's key names its requests and bug reports across the workspace
-- (MOBILE-12, MOBILE-B3), where the per-board FR-12 / B-3 can name several.
-- Existing boards take a key derived from their slug (letters and digits,
-- upper-cased, at most 10, not starting with a digit; "BOARD" when fewer
-- than 2 remain or the result is the reserved "FR"), numbered when two
-- boards of a workspace derive the same one. New boards get theirs when
-- created; uniqueness in the workspace is checked by the board's writes.
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

ALTER TABLE feedback_boards ALTER COLUMN key SET NOT NULL;
CREATE INDEX feedback_boards_by_key ON feedback_boards (workspace_id, key);
