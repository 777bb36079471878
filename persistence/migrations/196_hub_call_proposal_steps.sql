-- What a confirmed call proposal has applied so far, step by step ({"vote": …, "note": …} or
-- {"create": …, "vote": …}): a confirmation that failed half-way is released with its finished
-- steps kept, so confirming again runs only the rest (never a second request or a second note).
ALTER TABLE hub_call_proposals ADD COLUMN steps jsonb NOT NULL DEFAULT '{}'::jsonb;
