-- A Lens thread's actor rebuilds from its rows on activation: its proposals
-- are found through the answers (turns) that proposed them.
CREATE INDEX lens_proposals_of_answer ON lens_proposals (answer_id);
