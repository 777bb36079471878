-- The requests a changelog entry has shipped and announced: publishing the entry again (after
-- taking it back to a draft) announces each request once only (actors/feedback/Shipping.ts).
CREATE TABLE feedback_changelog_shipped (
  entry_id text NOT NULL REFERENCES feedback_changelog_entries (id) ON DELETE CASCADE,
  request_id text NOT NULL,
  shipped_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (entry_id, request_id)
);
